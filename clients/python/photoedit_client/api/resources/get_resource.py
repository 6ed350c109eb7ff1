from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.resource_type import ResourceType
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    type_: ResourceType,
    *,
    rev: int | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(range_, Unset):
        headers["Range"] = range_

    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match

    params: dict[str, Any] = {}

    params["rev"] = rev

    params["exp"] = exp

    params["kid"] = kid

    params["sig"] = sig

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/assets/{id}/resources/{type_}".format(
            id=quote(str(id), safe=""),
            type_=quote(str(type_), safe=""),
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

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 416:
        response_416 = Problem.from_dict(response.json())

        return response_416

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
    type_: ResourceType,
    *,
    client: AuthenticatedClient | Client,
    rev: int | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """One resource's bytes, streamed (ETag, one Range; signed URLs need no token).

    Args:
        id (str):
        type_ (ResourceType):
        rev (int | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        range_ (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        type_=type_,
        rev=rev,
        exp=exp,
        kid=kid,
        sig=sig,
        range_=range_,
        if_none_match=if_none_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    type_: ResourceType,
    *,
    client: AuthenticatedClient | Client,
    rev: int | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | None:
    """One resource's bytes, streamed (ETag, one Range; signed URLs need no token).

    Args:
        id (str):
        type_ (ResourceType):
        rev (int | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        range_ (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Problem
    """

    return sync_detailed(
        id=id,
        type_=type_,
        client=client,
        rev=rev,
        exp=exp,
        kid=kid,
        sig=sig,
        range_=range_,
        if_none_match=if_none_match,
    ).parsed


async def asyncio_detailed(
    id: str,
    type_: ResourceType,
    *,
    client: AuthenticatedClient | Client,
    rev: int | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Response[Any | Problem]:
    """One resource's bytes, streamed (ETag, one Range; signed URLs need no token).

    Args:
        id (str):
        type_ (ResourceType):
        rev (int | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        range_ (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        type_=type_,
        rev=rev,
        exp=exp,
        kid=kid,
        sig=sig,
        range_=range_,
        if_none_match=if_none_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    type_: ResourceType,
    *,
    client: AuthenticatedClient | Client,
    rev: int | Unset = UNSET,
    exp: int | Unset = UNSET,
    kid: str | Unset = UNSET,
    sig: str | Unset = UNSET,
    range_: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,
) -> Any | Problem | None:
    """One resource's bytes, streamed (ETag, one Range; signed URLs need no token).

    Args:
        id (str):
        type_ (ResourceType):
        rev (int | Unset):
        exp (int | Unset):
        kid (str | Unset):
        sig (str | Unset):
        range_ (str | Unset):
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
            type_=type_,
            client=client,
            rev=rev,
            exp=exp,
            kid=kid,
            sig=sig,
            range_=range_,
            if_none_match=if_none_match,
        )
    ).parsed
