from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.upright_adjustment import UprightAdjustment
from ...models.upright_mode import UprightMode
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    mode: UprightMode | Unset = UprightMode.AUTO,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    json_mode: str | Unset = UNSET
    if not isinstance(mode, Unset):
        json_mode = mode.value

    params["mode"] = json_mode

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/assets/{id}/upright".format(
            id=quote(str(id), safe=""),
        ),
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | UprightAdjustment:
    if response.status_code == 200:
        response_200 = UprightAdjustment.from_dict(response.json())

        return response_200

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
) -> Response[Problem | UprightAdjustment]:
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
    mode: UprightMode | Unset = UprightMode.AUTO,
) -> Response[Problem | UprightAdjustment]:
    """What the chain step upright=MODE would write (the perspective solved from the photo's lines, or why
    none); nothing is written.

    Args:
        id (str):
        mode (UprightMode | Unset):  Default: UprightMode.AUTO.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UprightAdjustment]
    """

    kwargs = _get_kwargs(
        id=id,
        mode=mode,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    mode: UprightMode | Unset = UprightMode.AUTO,
) -> Problem | UprightAdjustment | None:
    """What the chain step upright=MODE would write (the perspective solved from the photo's lines, or why
    none); nothing is written.

    Args:
        id (str):
        mode (UprightMode | Unset):  Default: UprightMode.AUTO.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UprightAdjustment
    """

    return sync_detailed(
        id=id,
        client=client,
        mode=mode,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    mode: UprightMode | Unset = UprightMode.AUTO,
) -> Response[Problem | UprightAdjustment]:
    """What the chain step upright=MODE would write (the perspective solved from the photo's lines, or why
    none); nothing is written.

    Args:
        id (str):
        mode (UprightMode | Unset):  Default: UprightMode.AUTO.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | UprightAdjustment]
    """

    kwargs = _get_kwargs(
        id=id,
        mode=mode,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    mode: UprightMode | Unset = UprightMode.AUTO,
) -> Problem | UprightAdjustment | None:
    """What the chain step upright=MODE would write (the perspective solved from the photo's lines, or why
    none); nothing is written.

    Args:
        id (str):
        mode (UprightMode | Unset):  Default: UprightMode.AUTO.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | UprightAdjustment
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            mode=mode,
        )
    ).parsed
