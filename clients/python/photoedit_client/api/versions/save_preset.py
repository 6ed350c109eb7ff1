from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.save_preset_request import SavePresetRequest
from ...models.saved_preset import SavedPreset
from ...types import Response


def _get_kwargs(
    *,
    body: SavePresetRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/presets",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SavedPreset:
    if response.status_code == 201:
        response_201 = SavedPreset.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | SavedPreset]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SavePresetRequest,
) -> Response[Problem | SavedPreset]:
    """Save the chosen groups of a photo's edit as a library preset (Lightroom's New Preset), scaled by an
    amount.

     A Lightroom preset in the library (never replaced: 409
    preset-exists), listed by GET /v1/presets, applied as the chain step
    preset:NAME, downloaded from /v1/presets/{name}/xmp. `notExported`
    names the filters a Lightroom preset cannot hold (left out).

    Args:
        body (SavePresetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SavedPreset]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: SavePresetRequest,
) -> Problem | SavedPreset | None:
    """Save the chosen groups of a photo's edit as a library preset (Lightroom's New Preset), scaled by an
    amount.

     A Lightroom preset in the library (never replaced: 409
    preset-exists), listed by GET /v1/presets, applied as the chain step
    preset:NAME, downloaded from /v1/presets/{name}/xmp. `notExported`
    names the filters a Lightroom preset cannot hold (left out).

    Args:
        body (SavePresetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SavedPreset
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: SavePresetRequest,
) -> Response[Problem | SavedPreset]:
    """Save the chosen groups of a photo's edit as a library preset (Lightroom's New Preset), scaled by an
    amount.

     A Lightroom preset in the library (never replaced: 409
    preset-exists), listed by GET /v1/presets, applied as the chain step
    preset:NAME, downloaded from /v1/presets/{name}/xmp. `notExported`
    names the filters a Lightroom preset cannot hold (left out).

    Args:
        body (SavePresetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SavedPreset]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: SavePresetRequest,
) -> Problem | SavedPreset | None:
    """Save the chosen groups of a photo's edit as a library preset (Lightroom's New Preset), scaled by an
    amount.

     A Lightroom preset in the library (never replaced: 409
    preset-exists), listed by GET /v1/presets, applied as the chain step
    preset:NAME, downloaded from /v1/presets/{name}/xmp. `notExported`
    names the filters a Lightroom preset cannot hold (left out).

    Args:
        body (SavePresetRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SavedPreset
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
