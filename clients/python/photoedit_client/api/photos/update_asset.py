from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.asset import Asset
from ...models.problem import Problem
from ...models.update_asset_body import UpdateAssetBody
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: UpdateAssetBody,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/v1/assets/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Asset | Problem:
    if response.status_code == 200:
        response_200 = Asset.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Asset | Problem]:
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
    body: UpdateAssetBody,
    if_match: str | Unset = UNSET,
) -> Response[Asset | Problem]:
    """Favorite, hide, rate, label, set keywords, title and caption.

     Every member given is set, all in one commit (an invalid one changes nothing). `keywords` replaces
    the photo's keywords; null clears a label, title or caption (so does an empty title or caption).

    Args:
        id (str):
        if_match (str | Unset):
        body (UpdateAssetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Asset | Problem]
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
    body: UpdateAssetBody,
    if_match: str | Unset = UNSET,
) -> Asset | Problem | None:
    """Favorite, hide, rate, label, set keywords, title and caption.

     Every member given is set, all in one commit (an invalid one changes nothing). `keywords` replaces
    the photo's keywords; null clears a label, title or caption (so does an empty title or caption).

    Args:
        id (str):
        if_match (str | Unset):
        body (UpdateAssetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Asset | Problem
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
    body: UpdateAssetBody,
    if_match: str | Unset = UNSET,
) -> Response[Asset | Problem]:
    """Favorite, hide, rate, label, set keywords, title and caption.

     Every member given is set, all in one commit (an invalid one changes nothing). `keywords` replaces
    the photo's keywords; null clears a label, title or caption (so does an empty title or caption).

    Args:
        id (str):
        if_match (str | Unset):
        body (UpdateAssetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Asset | Problem]
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
    body: UpdateAssetBody,
    if_match: str | Unset = UNSET,
) -> Asset | Problem | None:
    """Favorite, hide, rate, label, set keywords, title and caption.

     Every member given is set, all in one commit (an invalid one changes nothing). `keywords` replaces
    the photo's keywords; null clears a label, title or caption (so does an empty title or caption).

    Args:
        id (str):
        if_match (str | Unset):
        body (UpdateAssetBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Asset | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            if_match=if_match,
        )
    ).parsed
