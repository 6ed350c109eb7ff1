from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.asset import Asset
from ...models.editing_output import EditingOutput
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: EditingOutput,
    if_match: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/assets/{id}/editing-output".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["files"] = body.to_multipart()

    headers["Content-Type"] = "multipart/form-data; boundary=+++"

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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 412:
        response_412 = Problem.from_dict(response.json())

        return response_412

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 428:
        response_428 = Problem.from_dict(response.json())

        return response_428

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
    body: EditingOutput,
    if_match: str,
) -> Response[Asset | Problem]:
    """Commit an editor's output (PhotoKit's ContentEditingOutput) as the photo's new revision.

     The parts `adjustmentData`, `base` (the editing input's) and `render`
    (a JPEG rendered by the editor from that base). The same body is
    accepted by `POST /v1/assets/{id}/edits` (older clients).

    Args:
        id (str):
        if_match (str):
        body (EditingOutput):

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
    body: EditingOutput,
    if_match: str,
) -> Asset | Problem | None:
    """Commit an editor's output (PhotoKit's ContentEditingOutput) as the photo's new revision.

     The parts `adjustmentData`, `base` (the editing input's) and `render`
    (a JPEG rendered by the editor from that base). The same body is
    accepted by `POST /v1/assets/{id}/edits` (older clients).

    Args:
        id (str):
        if_match (str):
        body (EditingOutput):

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
    body: EditingOutput,
    if_match: str,
) -> Response[Asset | Problem]:
    """Commit an editor's output (PhotoKit's ContentEditingOutput) as the photo's new revision.

     The parts `adjustmentData`, `base` (the editing input's) and `render`
    (a JPEG rendered by the editor from that base). The same body is
    accepted by `POST /v1/assets/{id}/edits` (older clients).

    Args:
        id (str):
        if_match (str):
        body (EditingOutput):

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
    body: EditingOutput,
    if_match: str,
) -> Asset | Problem | None:
    """Commit an editor's output (PhotoKit's ContentEditingOutput) as the photo's new revision.

     The parts `adjustmentData`, `base` (the editing input's) and `render`
    (a JPEG rendered by the editor from that base). The same body is
    accepted by `POST /v1/assets/{id}/edits` (older clients).

    Args:
        id (str):
        if_match (str):
        body (EditingOutput):

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
