from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.flag import Flag
from ...models.list_assets_response_200 import ListAssetsResponse200
from ...models.list_assets_thumbnail_fit import ListAssetsThumbnailFit
from ...models.list_assets_thumbnail_format import ListAssetsThumbnailFormat
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    where: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    hidden: Flag | Unset = UNSET,
    deleted: Flag | Unset = UNSET,
    album: str | Unset = UNSET,
    thumbnail: int | Unset = UNSET,
    thumbnail_fit: ListAssetsThumbnailFit | Unset = UNSET,
    thumbnail_format: ListAssetsThumbnailFormat | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["where"] = where

    params["sort"] = sort

    params["limit"] = limit

    params["cursor"] = cursor

    json_hidden: str | Unset = UNSET
    if not isinstance(hidden, Unset):
        json_hidden = hidden.value

    params["hidden"] = json_hidden

    json_deleted: str | Unset = UNSET
    if not isinstance(deleted, Unset):
        json_deleted = deleted.value

    params["deleted"] = json_deleted

    params["album"] = album

    params["thumbnail"] = thumbnail

    json_thumbnail_fit: str | Unset = UNSET
    if not isinstance(thumbnail_fit, Unset):
        json_thumbnail_fit = thumbnail_fit.value

    params["thumbnailFit"] = json_thumbnail_fit

    json_thumbnail_format: str | Unset = UNSET
    if not isinstance(thumbnail_format, Unset):
        json_thumbnail_format = thumbnail_format.value

    params["thumbnailFormat"] = json_thumbnail_format

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/assets",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ListAssetsResponse200 | Problem:
    if response.status_code == 200:
        response_200 = ListAssetsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ListAssetsResponse200 | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    where: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    hidden: Flag | Unset = UNSET,
    deleted: Flag | Unset = UNSET,
    album: str | Unset = UNSET,
    thumbnail: int | Unset = UNSET,
    thumbnail_fit: ListAssetsThumbnailFit | Unset = UNSET,
    thumbnail_format: ListAssetsThumbnailFormat | Unset = UNSET,
) -> Response[ListAssetsResponse200 | Problem]:
    """Photos, filtered and sorted with the CLI's query syntax, paged by cursor.

    Args:
        where (str | Unset):
        sort (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        hidden (Flag | Unset):
        deleted (Flag | Unset):
        album (str | Unset):
        thumbnail (int | Unset):
        thumbnail_fit (ListAssetsThumbnailFit | Unset):
        thumbnail_format (ListAssetsThumbnailFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListAssetsResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        where=where,
        sort=sort,
        limit=limit,
        cursor=cursor,
        hidden=hidden,
        deleted=deleted,
        album=album,
        thumbnail=thumbnail,
        thumbnail_fit=thumbnail_fit,
        thumbnail_format=thumbnail_format,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    where: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    hidden: Flag | Unset = UNSET,
    deleted: Flag | Unset = UNSET,
    album: str | Unset = UNSET,
    thumbnail: int | Unset = UNSET,
    thumbnail_fit: ListAssetsThumbnailFit | Unset = UNSET,
    thumbnail_format: ListAssetsThumbnailFormat | Unset = UNSET,
) -> ListAssetsResponse200 | Problem | None:
    """Photos, filtered and sorted with the CLI's query syntax, paged by cursor.

    Args:
        where (str | Unset):
        sort (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        hidden (Flag | Unset):
        deleted (Flag | Unset):
        album (str | Unset):
        thumbnail (int | Unset):
        thumbnail_fit (ListAssetsThumbnailFit | Unset):
        thumbnail_format (ListAssetsThumbnailFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListAssetsResponse200 | Problem
    """

    return sync_detailed(
        client=client,
        where=where,
        sort=sort,
        limit=limit,
        cursor=cursor,
        hidden=hidden,
        deleted=deleted,
        album=album,
        thumbnail=thumbnail,
        thumbnail_fit=thumbnail_fit,
        thumbnail_format=thumbnail_format,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    where: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    hidden: Flag | Unset = UNSET,
    deleted: Flag | Unset = UNSET,
    album: str | Unset = UNSET,
    thumbnail: int | Unset = UNSET,
    thumbnail_fit: ListAssetsThumbnailFit | Unset = UNSET,
    thumbnail_format: ListAssetsThumbnailFormat | Unset = UNSET,
) -> Response[ListAssetsResponse200 | Problem]:
    """Photos, filtered and sorted with the CLI's query syntax, paged by cursor.

    Args:
        where (str | Unset):
        sort (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        hidden (Flag | Unset):
        deleted (Flag | Unset):
        album (str | Unset):
        thumbnail (int | Unset):
        thumbnail_fit (ListAssetsThumbnailFit | Unset):
        thumbnail_format (ListAssetsThumbnailFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ListAssetsResponse200 | Problem]
    """

    kwargs = _get_kwargs(
        where=where,
        sort=sort,
        limit=limit,
        cursor=cursor,
        hidden=hidden,
        deleted=deleted,
        album=album,
        thumbnail=thumbnail,
        thumbnail_fit=thumbnail_fit,
        thumbnail_format=thumbnail_format,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    where: str | Unset = UNSET,
    sort: str | Unset = UNSET,
    limit: int | Unset = 100,
    cursor: str | Unset = UNSET,
    hidden: Flag | Unset = UNSET,
    deleted: Flag | Unset = UNSET,
    album: str | Unset = UNSET,
    thumbnail: int | Unset = UNSET,
    thumbnail_fit: ListAssetsThumbnailFit | Unset = UNSET,
    thumbnail_format: ListAssetsThumbnailFormat | Unset = UNSET,
) -> ListAssetsResponse200 | Problem | None:
    """Photos, filtered and sorted with the CLI's query syntax, paged by cursor.

    Args:
        where (str | Unset):
        sort (str | Unset):
        limit (int | Unset):  Default: 100.
        cursor (str | Unset):
        hidden (Flag | Unset):
        deleted (Flag | Unset):
        album (str | Unset):
        thumbnail (int | Unset):
        thumbnail_fit (ListAssetsThumbnailFit | Unset):
        thumbnail_format (ListAssetsThumbnailFormat | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ListAssetsResponse200 | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            where=where,
            sort=sort,
            limit=limit,
            cursor=cursor,
            hidden=hidden,
            deleted=deleted,
            album=album,
            thumbnail=thumbnail,
            thumbnail_fit=thumbnail_fit,
            thumbnail_format=thumbnail_format,
        )
    ).parsed
