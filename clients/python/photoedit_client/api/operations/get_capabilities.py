from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.capabilities import Capabilities
from ...models.problem import Problem
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/capabilities",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Capabilities | Problem:
    if response.status_code == 200:
        response_200 = Capabilities.from_dict(response.json())

        return response_200

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Capabilities | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Capabilities | Problem]:
    """What this server was started with (signed URLs or not, tokens or not, limits).

     Without signing keys (`urlSigning: false`) `render-url` answers 409
    `no-signing-keys`: fetch `/v1/assets/{id}/render` with the token instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Capabilities | Problem]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Capabilities | Problem | None:
    """What this server was started with (signed URLs or not, tokens or not, limits).

     Without signing keys (`urlSigning: false`) `render-url` answers 409
    `no-signing-keys`: fetch `/v1/assets/{id}/render` with the token instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Capabilities | Problem
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Capabilities | Problem]:
    """What this server was started with (signed URLs or not, tokens or not, limits).

     Without signing keys (`urlSigning: false`) `render-url` answers 409
    `no-signing-keys`: fetch `/v1/assets/{id}/render` with the token instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Capabilities | Problem]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Capabilities | Problem | None:
    """What this server was started with (signed URLs or not, tokens or not, limits).

     Without signing keys (`urlSigning: false`) `render-url` answers 409
    `no-signing-keys`: fetch `/v1/assets/{id}/render` with the token instead.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Capabilities | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
