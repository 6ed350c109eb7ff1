from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.preview_reset import PreviewReset
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    chain: str | Unset = UNSET,
    w: int | Unset = 1024,
    reset: PreviewReset | Unset = UNSET,
    q: int | Unset = 85,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["chain"] = chain

    params["w"] = w

    json_reset: str | Unset = UNSET
    if not isinstance(reset, Unset):
        json_reset = reset.value

    params["reset"] = json_reset

    params["q"] = q

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/assets/{id}/preview".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem:
    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem]:
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
    chain: str | Unset = UNSET,
    w: int | Unset = 1024,
    reset: PreviewReset | Unset = UNSET,
    q: int | Unset = 85,
) -> Response[Problem]:
    """A chain on top of the current recipe, rendered small and fast, not committed.

    Args:
        id (str):
        chain (str | Unset):
        w (int | Unset):  Default: 1024.
        reset (PreviewReset | Unset):
        q (int | Unset):  Default: 85.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        chain=chain,
        w=w,
        reset=reset,
        q=q,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    chain: str | Unset = UNSET,
    w: int | Unset = 1024,
    reset: PreviewReset | Unset = UNSET,
    q: int | Unset = 85,
) -> Problem | None:
    """A chain on top of the current recipe, rendered small and fast, not committed.

    Args:
        id (str):
        chain (str | Unset):
        w (int | Unset):  Default: 1024.
        reset (PreviewReset | Unset):
        q (int | Unset):  Default: 85.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        chain=chain,
        w=w,
        reset=reset,
        q=q,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    chain: str | Unset = UNSET,
    w: int | Unset = 1024,
    reset: PreviewReset | Unset = UNSET,
    q: int | Unset = 85,
) -> Response[Problem]:
    """A chain on top of the current recipe, rendered small and fast, not committed.

    Args:
        id (str):
        chain (str | Unset):
        w (int | Unset):  Default: 1024.
        reset (PreviewReset | Unset):
        q (int | Unset):  Default: 85.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        chain=chain,
        w=w,
        reset=reset,
        q=q,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    chain: str | Unset = UNSET,
    w: int | Unset = 1024,
    reset: PreviewReset | Unset = UNSET,
    q: int | Unset = 85,
) -> Problem | None:
    """A chain on top of the current recipe, rendered small and fast, not committed.

    Args:
        id (str):
        chain (str | Unset):
        w (int | Unset):  Default: 1024.
        reset (PreviewReset | Unset):
        q (int | Unset):  Default: 85.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            chain=chain,
            w=w,
            reset=reset,
            q=q,
        )
    ).parsed
