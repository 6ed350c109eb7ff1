from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.asset import Asset
from ...models.duplicate_request import DuplicateRequest
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: DuplicateRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_match, Unset):
        headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/assets/{id}/duplicates".format(
            id=quote(str(id), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Asset | Problem:
    if response.status_code == 201:
        response_201 = Asset.from_dict(response.json())

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

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

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
    body: DuplicateRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Asset | Problem]:
    """Make a virtual copy (a new photo sharing the original, starting from the current edit or, fresh,
    from the original).

     No second copy of the original's bytes. The copy gets the photo's
    rating, label, keywords, title, caption and favorite flag; from then
    on its history, metadata, albums and renders are its own. A copy of
    a copy is a copy of the same master. 409 `invalid-change` for a
    deleted photo, or one whose current version is another tool's
    render (duplicate it fresh).

    Args:
        id (str):
        if_match (str | Unset):
        body (DuplicateRequest | Unset):

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
    body: DuplicateRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Asset | Problem | None:
    """Make a virtual copy (a new photo sharing the original, starting from the current edit or, fresh,
    from the original).

     No second copy of the original's bytes. The copy gets the photo's
    rating, label, keywords, title, caption and favorite flag; from then
    on its history, metadata, albums and renders are its own. A copy of
    a copy is a copy of the same master. 409 `invalid-change` for a
    deleted photo, or one whose current version is another tool's
    render (duplicate it fresh).

    Args:
        id (str):
        if_match (str | Unset):
        body (DuplicateRequest | Unset):

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
    body: DuplicateRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Response[Asset | Problem]:
    """Make a virtual copy (a new photo sharing the original, starting from the current edit or, fresh,
    from the original).

     No second copy of the original's bytes. The copy gets the photo's
    rating, label, keywords, title, caption and favorite flag; from then
    on its history, metadata, albums and renders are its own. A copy of
    a copy is a copy of the same master. 409 `invalid-change` for a
    deleted photo, or one whose current version is another tool's
    render (duplicate it fresh).

    Args:
        id (str):
        if_match (str | Unset):
        body (DuplicateRequest | Unset):

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
    body: DuplicateRequest | Unset = UNSET,
    if_match: str | Unset = UNSET,
) -> Asset | Problem | None:
    """Make a virtual copy (a new photo sharing the original, starting from the current edit or, fresh,
    from the original).

     No second copy of the original's bytes. The copy gets the photo's
    rating, label, keywords, title, caption and favorite flag; from then
    on its history, metadata, albums and renders are its own. A copy of
    a copy is a copy of the same master. 409 `invalid-change` for a
    deleted photo, or one whose current version is another tool's
    render (duplicate it fresh).

    Args:
        id (str):
        if_match (str | Unset):
        body (DuplicateRequest | Unset):

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
