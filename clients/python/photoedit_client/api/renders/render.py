from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.render_depth import RenderDepth
from ...models.render_fit import RenderFit
from ...models.render_format import RenderFormat
from ...models.render_metadata import RenderMetadata
from ...models.render_profile import RenderProfile
from ...models.render_version import RenderVersion
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    w: int | Unset = UNSET,
    h: int | Unset = UNSET,
    fit: RenderFit | Unset = UNSET,
    format_: RenderFormat | Unset = UNSET,
    q: int | Unset = UNSET,
    version: RenderVersion | Unset = UNSET,
    rev: int | Unset = UNSET,
    preset: str | Unset = UNSET,
    metadata: RenderMetadata | Unset = RenderMetadata.COPYRIGHT,
    long_edge: int | Unset = UNSET,
    short_edge: int | Unset = UNSET,
    megapixels: float | Unset = UNSET,
    percent: float | Unset = UNSET,
    enlarge: bool | Unset = UNSET,
    sharpen: str | Unset = UNSET,
    watermark: str | Unset = UNSET,
    watermark_size: float | Unset = UNSET,
    watermark_opacity: float | Unset = UNSET,
    watermark_position: str | Unset = UNSET,
    watermark_inset: float | Unset = UNSET,
    max_bytes: str | Unset = UNSET,
    quality: int | Unset = UNSET,
    lossless: bool | Unset = UNSET,
    effort: int | Unset = UNSET,
    depth: RenderDepth | Unset = UNSET,
    profile: RenderProfile | Unset = UNSET,
    intent: str | Unset = UNSET,
    compression: str | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["w"] = w

    params["h"] = h

    json_fit: str | Unset = UNSET
    if not isinstance(fit, Unset):
        json_fit = fit.value

    params["fit"] = json_fit

    json_format_: str | Unset = UNSET
    if not isinstance(format_, Unset):
        json_format_ = format_.value

    params["format"] = json_format_

    params["q"] = q

    json_version: str | Unset = UNSET
    if not isinstance(version, Unset):
        json_version = version.value

    params["version"] = json_version

    params["rev"] = rev

    params["preset"] = preset

    json_metadata: str | Unset = UNSET
    if not isinstance(metadata, Unset):
        json_metadata = metadata.value

    params["metadata"] = json_metadata

    params["long-edge"] = long_edge

    params["short-edge"] = short_edge

    params["megapixels"] = megapixels

    params["percent"] = percent

    params["enlarge"] = enlarge

    params["sharpen"] = sharpen

    params["watermark"] = watermark

    params["watermark-size"] = watermark_size

    params["watermark-opacity"] = watermark_opacity

    params["watermark-position"] = watermark_position

    params["watermark-inset"] = watermark_inset

    params["max-bytes"] = max_bytes

    params["quality"] = quality

    params["lossless"] = lossless

    params["effort"] = effort

    json_depth: str | Unset = UNSET
    if not isinstance(depth, Unset):
        json_depth = depth.value

    params["depth"] = json_depth

    json_profile: str | Unset = UNSET
    if not isinstance(profile, Unset):
        json_profile = profile.value

    params["profile"] = json_profile

    params["intent"] = intent

    params["compression"] = compression

    params["exp"] = exp

    params["kid"] = kid

    params["sig"] = sig

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/assets/{id}/render".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Any | Problem:
    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Any | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    w: int | Unset = UNSET,
    h: int | Unset = UNSET,
    fit: RenderFit | Unset = UNSET,
    format_: RenderFormat | Unset = UNSET,
    q: int | Unset = UNSET,
    version: RenderVersion | Unset = UNSET,
    rev: int | Unset = UNSET,
    preset: str | Unset = UNSET,
    metadata: RenderMetadata | Unset = RenderMetadata.COPYRIGHT,
    long_edge: int | Unset = UNSET,
    short_edge: int | Unset = UNSET,
    megapixels: float | Unset = UNSET,
    percent: float | Unset = UNSET,
    enlarge: bool | Unset = UNSET,
    sharpen: str | Unset = UNSET,
    watermark: str | Unset = UNSET,
    watermark_size: float | Unset = UNSET,
    watermark_opacity: float | Unset = UNSET,
    watermark_position: str | Unset = UNSET,
    watermark_inset: float | Unset = UNSET,
    max_bytes: str | Unset = UNSET,
    quality: int | Unset = UNSET,
    lossless: bool | Unset = UNSET,
    effort: int | Unset = UNSET,
    depth: RenderDepth | Unset = UNSET,
    profile: RenderProfile | Unset = UNSET,
    intent: str | Unset = UNSET,
    compression: str | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """A render through the caching image manager (immutable with rev=; signed URLs need no token).

    Args:
        id (str):
        w (int | Unset):
        h (int | Unset):
        fit (RenderFit | Unset):
        format_ (RenderFormat | Unset):
        q (int | Unset):
        version (RenderVersion | Unset):
        rev (int | Unset):
        preset (str | Unset):
        metadata (RenderMetadata | Unset):  Default: RenderMetadata.COPYRIGHT.
        long_edge (int | Unset):
        short_edge (int | Unset):
        megapixels (float | Unset):
        percent (float | Unset):
        enlarge (bool | Unset):
        sharpen (str | Unset):
        watermark (str | Unset):
        watermark_size (float | Unset):
        watermark_opacity (float | Unset):
        watermark_position (str | Unset):
        watermark_inset (float | Unset):
        max_bytes (str | Unset):
        quality (int | Unset):
        lossless (bool | Unset):
        effort (int | Unset):
        depth (RenderDepth | Unset):
        profile (RenderProfile | Unset):
        intent (str | Unset):
        compression (str | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        w=w,
        h=h,
        fit=fit,
        format_=format_,
        q=q,
        version=version,
        rev=rev,
        preset=preset,
        metadata=metadata,
        long_edge=long_edge,
        short_edge=short_edge,
        megapixels=megapixels,
        percent=percent,
        enlarge=enlarge,
        sharpen=sharpen,
        watermark=watermark,
        watermark_size=watermark_size,
        watermark_opacity=watermark_opacity,
        watermark_position=watermark_position,
        watermark_inset=watermark_inset,
        max_bytes=max_bytes,
        quality=quality,
        lossless=lossless,
        effort=effort,
        depth=depth,
        profile=profile,
        intent=intent,
        compression=compression,
        exp=exp,
        kid=kid,
        sig=sig,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    w: int | Unset = UNSET,
    h: int | Unset = UNSET,
    fit: RenderFit | Unset = UNSET,
    format_: RenderFormat | Unset = UNSET,
    q: int | Unset = UNSET,
    version: RenderVersion | Unset = UNSET,
    rev: int | Unset = UNSET,
    preset: str | Unset = UNSET,
    metadata: RenderMetadata | Unset = RenderMetadata.COPYRIGHT,
    long_edge: int | Unset = UNSET,
    short_edge: int | Unset = UNSET,
    megapixels: float | Unset = UNSET,
    percent: float | Unset = UNSET,
    enlarge: bool | Unset = UNSET,
    sharpen: str | Unset = UNSET,
    watermark: str | Unset = UNSET,
    watermark_size: float | Unset = UNSET,
    watermark_opacity: float | Unset = UNSET,
    watermark_position: str | Unset = UNSET,
    watermark_inset: float | Unset = UNSET,
    max_bytes: str | Unset = UNSET,
    quality: int | Unset = UNSET,
    lossless: bool | Unset = UNSET,
    effort: int | Unset = UNSET,
    depth: RenderDepth | Unset = UNSET,
    profile: RenderProfile | Unset = UNSET,
    intent: str | Unset = UNSET,
    compression: str | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | None:
    """A render through the caching image manager (immutable with rev=; signed URLs need no token).

    Args:
        id (str):
        w (int | Unset):
        h (int | Unset):
        fit (RenderFit | Unset):
        format_ (RenderFormat | Unset):
        q (int | Unset):
        version (RenderVersion | Unset):
        rev (int | Unset):
        preset (str | Unset):
        metadata (RenderMetadata | Unset):  Default: RenderMetadata.COPYRIGHT.
        long_edge (int | Unset):
        short_edge (int | Unset):
        megapixels (float | Unset):
        percent (float | Unset):
        enlarge (bool | Unset):
        sharpen (str | Unset):
        watermark (str | Unset):
        watermark_size (float | Unset):
        watermark_opacity (float | Unset):
        watermark_position (str | Unset):
        watermark_inset (float | Unset):
        max_bytes (str | Unset):
        quality (int | Unset):
        lossless (bool | Unset):
        effort (int | Unset):
        depth (RenderDepth | Unset):
        profile (RenderProfile | Unset):
        intent (str | Unset):
        compression (str | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        w=w,
        h=h,
        fit=fit,
        format_=format_,
        q=q,
        version=version,
        rev=rev,
        preset=preset,
        metadata=metadata,
        long_edge=long_edge,
        short_edge=short_edge,
        megapixels=megapixels,
        percent=percent,
        enlarge=enlarge,
        sharpen=sharpen,
        watermark=watermark,
        watermark_size=watermark_size,
        watermark_opacity=watermark_opacity,
        watermark_position=watermark_position,
        watermark_inset=watermark_inset,
        max_bytes=max_bytes,
        quality=quality,
        lossless=lossless,
        effort=effort,
        depth=depth,
        profile=profile,
        intent=intent,
        compression=compression,
        exp=exp,
        kid=kid,
        sig=sig,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    w: int | Unset = UNSET,
    h: int | Unset = UNSET,
    fit: RenderFit | Unset = UNSET,
    format_: RenderFormat | Unset = UNSET,
    q: int | Unset = UNSET,
    version: RenderVersion | Unset = UNSET,
    rev: int | Unset = UNSET,
    preset: str | Unset = UNSET,
    metadata: RenderMetadata | Unset = RenderMetadata.COPYRIGHT,
    long_edge: int | Unset = UNSET,
    short_edge: int | Unset = UNSET,
    megapixels: float | Unset = UNSET,
    percent: float | Unset = UNSET,
    enlarge: bool | Unset = UNSET,
    sharpen: str | Unset = UNSET,
    watermark: str | Unset = UNSET,
    watermark_size: float | Unset = UNSET,
    watermark_opacity: float | Unset = UNSET,
    watermark_position: str | Unset = UNSET,
    watermark_inset: float | Unset = UNSET,
    max_bytes: str | Unset = UNSET,
    quality: int | Unset = UNSET,
    lossless: bool | Unset = UNSET,
    effort: int | Unset = UNSET,
    depth: RenderDepth | Unset = UNSET,
    profile: RenderProfile | Unset = UNSET,
    intent: str | Unset = UNSET,
    compression: str | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """A render through the caching image manager (immutable with rev=; signed URLs need no token).

    Args:
        id (str):
        w (int | Unset):
        h (int | Unset):
        fit (RenderFit | Unset):
        format_ (RenderFormat | Unset):
        q (int | Unset):
        version (RenderVersion | Unset):
        rev (int | Unset):
        preset (str | Unset):
        metadata (RenderMetadata | Unset):  Default: RenderMetadata.COPYRIGHT.
        long_edge (int | Unset):
        short_edge (int | Unset):
        megapixels (float | Unset):
        percent (float | Unset):
        enlarge (bool | Unset):
        sharpen (str | Unset):
        watermark (str | Unset):
        watermark_size (float | Unset):
        watermark_opacity (float | Unset):
        watermark_position (str | Unset):
        watermark_inset (float | Unset):
        max_bytes (str | Unset):
        quality (int | Unset):
        lossless (bool | Unset):
        effort (int | Unset):
        depth (RenderDepth | Unset):
        profile (RenderProfile | Unset):
        intent (str | Unset):
        compression (str | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        w=w,
        h=h,
        fit=fit,
        format_=format_,
        q=q,
        version=version,
        rev=rev,
        preset=preset,
        metadata=metadata,
        long_edge=long_edge,
        short_edge=short_edge,
        megapixels=megapixels,
        percent=percent,
        enlarge=enlarge,
        sharpen=sharpen,
        watermark=watermark,
        watermark_size=watermark_size,
        watermark_opacity=watermark_opacity,
        watermark_position=watermark_position,
        watermark_inset=watermark_inset,
        max_bytes=max_bytes,
        quality=quality,
        lossless=lossless,
        effort=effort,
        depth=depth,
        profile=profile,
        intent=intent,
        compression=compression,
        exp=exp,
        kid=kid,
        sig=sig,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    w: int | Unset = UNSET,
    h: int | Unset = UNSET,
    fit: RenderFit | Unset = UNSET,
    format_: RenderFormat | Unset = UNSET,
    q: int | Unset = UNSET,
    version: RenderVersion | Unset = UNSET,
    rev: int | Unset = UNSET,
    preset: str | Unset = UNSET,
    metadata: RenderMetadata | Unset = RenderMetadata.COPYRIGHT,
    long_edge: int | Unset = UNSET,
    short_edge: int | Unset = UNSET,
    megapixels: float | Unset = UNSET,
    percent: float | Unset = UNSET,
    enlarge: bool | Unset = UNSET,
    sharpen: str | Unset = UNSET,
    watermark: str | Unset = UNSET,
    watermark_size: float | Unset = UNSET,
    watermark_opacity: float | Unset = UNSET,
    watermark_position: str | Unset = UNSET,
    watermark_inset: float | Unset = UNSET,
    max_bytes: str | Unset = UNSET,
    quality: int | Unset = UNSET,
    lossless: bool | Unset = UNSET,
    effort: int | Unset = UNSET,
    depth: RenderDepth | Unset = UNSET,
    profile: RenderProfile | Unset = UNSET,
    intent: str | Unset = UNSET,
    compression: str | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | None:
    """A render through the caching image manager (immutable with rev=; signed URLs need no token).

    Args:
        id (str):
        w (int | Unset):
        h (int | Unset):
        fit (RenderFit | Unset):
        format_ (RenderFormat | Unset):
        q (int | Unset):
        version (RenderVersion | Unset):
        rev (int | Unset):
        preset (str | Unset):
        metadata (RenderMetadata | Unset):  Default: RenderMetadata.COPYRIGHT.
        long_edge (int | Unset):
        short_edge (int | Unset):
        megapixels (float | Unset):
        percent (float | Unset):
        enlarge (bool | Unset):
        sharpen (str | Unset):
        watermark (str | Unset):
        watermark_size (float | Unset):
        watermark_opacity (float | Unset):
        watermark_position (str | Unset):
        watermark_inset (float | Unset):
        max_bytes (str | Unset):
        quality (int | Unset):
        lossless (bool | Unset):
        effort (int | Unset):
        depth (RenderDepth | Unset):
        profile (RenderProfile | Unset):
        intent (str | Unset):
        compression (str | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            w=w,
            h=h,
            fit=fit,
            format_=format_,
            q=q,
            version=version,
            rev=rev,
            preset=preset,
            metadata=metadata,
            long_edge=long_edge,
            short_edge=short_edge,
            megapixels=megapixels,
            percent=percent,
            enlarge=enlarge,
            sharpen=sharpen,
            watermark=watermark,
            watermark_size=watermark_size,
            watermark_opacity=watermark_opacity,
            watermark_position=watermark_position,
            watermark_inset=watermark_inset,
            max_bytes=max_bytes,
            quality=quality,
            lossless=lossless,
            effort=effort,
            depth=depth,
            profile=profile,
            intent=intent,
            compression=compression,
            exp=exp,
            kid=kid,
            sig=sig,
            if_none_match=if_none_match,
        )
    ).parsed
