from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.album import Album
from ...models.problem import Problem
from ...models.update_album_body import UpdateAlbumBody
from ...types import Response


def _get_kwargs(
    album: str,
    *,
    body: UpdateAlbumBody,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/albums/{album}".format(
            album=quote(str(album), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Album | Problem:
    if response.status_code == 200:
        response_200 = Album.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Album | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    album: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateAlbumBody,
) -> Response[Album | Problem]:
    """Rename, add and remove photos.

    Args:
        album (str):
        body (UpdateAlbumBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Album | Problem]
    """

    kwargs = _get_kwargs(
        album=album,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    album: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateAlbumBody,
) -> Album | Problem | None:
    """Rename, add and remove photos.

    Args:
        album (str):
        body (UpdateAlbumBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Album | Problem
    """

    return sync_detailed(
        album=album,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    album: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateAlbumBody,
) -> Response[Album | Problem]:
    """Rename, add and remove photos.

    Args:
        album (str):
        body (UpdateAlbumBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Album | Problem]
    """

    kwargs = _get_kwargs(
        album=album,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    album: str,
    *,
    client: AuthenticatedClient | Client,
    body: UpdateAlbumBody,
) -> Album | Problem | None:
    """Rename, add and remove photos.

    Args:
        album (str):
        body (UpdateAlbumBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Album | Problem
    """

    return (
        await asyncio_detailed(
            album=album,
            client=client,
            body=body,
        )
    ).parsed
