from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.problem import Problem
from ...models.sync_request import SyncRequest
from ...models.sync_result import SyncResult
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: SyncRequest,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/assets/{id}/sync".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Problem | SyncResult:
    if response.status_code == 200:
        response_200 = SyncResult.from_dict(response.json())

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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Problem | SyncResult]:
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
    body: SyncRequest,
    if_match: str | Unset = UNSET,
) -> Response[Problem | SyncResult]:
    """Sync the photo's settings of some groups onto other photos (Lightroom's Sync Settings, darktable's
    selective paste).

     In each synced group a target takes the source's filters exactly
    (one the source lacks is removed); its other groups stay. Without
    `only`/`except` every group but geometry and local is synced (as
    Lightroom leaves out crop and local corrections). Every id and group
    is checked before anything changes (404 unknown-asset, 400
    unknown-group, 400 sync-onto-source); each target is then its own
    commit, a new revision with its render.

    Args:
        id (str):
        if_match (str | Unset):
        body (SyncRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SyncResult]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SyncRequest,
    if_match: str | Unset = UNSET,
) -> Problem | SyncResult | None:
    """Sync the photo's settings of some groups onto other photos (Lightroom's Sync Settings, darktable's
    selective paste).

     In each synced group a target takes the source's filters exactly
    (one the source lacks is removed); its other groups stay. Without
    `only`/`except` every group but geometry and local is synced (as
    Lightroom leaves out crop and local corrections). Every id and group
    is checked before anything changes (404 unknown-asset, 400
    unknown-group, 400 sync-onto-source); each target is then its own
    commit, a new revision with its render.

    Args:
        id (str):
        if_match (str | Unset):
        body (SyncRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SyncResult
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        if_match=if_match,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SyncRequest,
    if_match: str | Unset = UNSET,
) -> Response[Problem | SyncResult]:
    """Sync the photo's settings of some groups onto other photos (Lightroom's Sync Settings, darktable's
    selective paste).

     In each synced group a target takes the source's filters exactly
    (one the source lacks is removed); its other groups stay. Without
    `only`/`except` every group but geometry and local is synced (as
    Lightroom leaves out crop and local corrections). Every id and group
    is checked before anything changes (404 unknown-asset, 400
    unknown-group, 400 sync-onto-source); each target is then its own
    commit, a new revision with its render.

    Args:
        id (str):
        if_match (str | Unset):
        body (SyncRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SyncResult]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        if_match=if_match,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: SyncRequest,
    if_match: str | Unset = UNSET,
) -> Problem | SyncResult | None:
    """Sync the photo's settings of some groups onto other photos (Lightroom's Sync Settings, darktable's
    selective paste).

     In each synced group a target takes the source's filters exactly
    (one the source lacks is removed); its other groups stay. Without
    `only`/`except` every group but geometry and local is synced (as
    Lightroom leaves out crop and local corrections). Every id and group
    is checked before anything changes (404 unknown-asset, 400
    unknown-group, 400 sync-onto-source); each target is then its own
    commit, a new revision with its render.

    Args:
        id (str):
        if_match (str | Unset):
        body (SyncRequest):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SyncResult
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
