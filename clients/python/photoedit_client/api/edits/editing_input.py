from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.editing_input import EditingInput
from ...models.editing_input_options import EditingInputOptions
from ...models.editor_formats_item import EditorFormatsItem
from ...models.problem import Problem
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: EditingInputOptions | list[EditorFormatsItem] | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/assets/{id}/editing-input".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, EditingInputOptions):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = []
        for componentsschemas_editor_formats_item_data in body:
            componentsschemas_editor_formats_item = (
                componentsschemas_editor_formats_item_data.to_dict()
            )
            _kwargs["json"].append(componentsschemas_editor_formats_item)

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> EditingInput | Problem:
    if response.status_code == 200:
        response_200 = EditingInput.from_dict(response.json())

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
) -> Response[EditingInput | Problem]:
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
    body: EditingInputOptions | list[EditorFormatsItem] | Unset = UNSET,
) -> Response[EditingInput | Problem]:
    """What an editor needs to edit the photo (PhotoKit's ContentEditingInput); read scope.

    Args:
        id (str):
        body (EditingInputOptions | list[EditorFormatsItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EditingInput | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EditingInputOptions | list[EditorFormatsItem] | Unset = UNSET,
) -> EditingInput | Problem | None:
    """What an editor needs to edit the photo (PhotoKit's ContentEditingInput); read scope.

    Args:
        id (str):
        body (EditingInputOptions | list[EditorFormatsItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EditingInput | Problem
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EditingInputOptions | list[EditorFormatsItem] | Unset = UNSET,
) -> Response[EditingInput | Problem]:
    """What an editor needs to edit the photo (PhotoKit's ContentEditingInput); read scope.

    Args:
        id (str):
        body (EditingInputOptions | list[EditorFormatsItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EditingInput | Problem]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    body: EditingInputOptions | list[EditorFormatsItem] | Unset = UNSET,
) -> EditingInput | Problem | None:
    """What an editor needs to edit the photo (PhotoKit's ContentEditingInput); read scope.

    Args:
        id (str):
        body (EditingInputOptions | list[EditorFormatsItem] | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EditingInput | Problem
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
        )
    ).parsed
