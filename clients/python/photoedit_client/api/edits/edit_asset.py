from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.asset import Asset
from ...models.chain_edit import ChainEdit
from ...models.problem import Problem
from ...models.recipe_edit import RecipeEdit
from ...types import Response


def _get_kwargs(
    id: str,
    *,
    body: ChainEdit | RecipeEdit,
    if_match: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["If-Match"] = if_match

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/assets/{id}/edits".format(
            id=quote(str(id), safe=""),
        ),
    }

    if isinstance(body, ChainEdit):
        _kwargs["json"] = body.to_dict()
    else:
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
    body: ChainEdit | RecipeEdit,
    if_match: str,
) -> Response[Asset | Problem]:
    """Apply a chain, a recipe or a preset.

     `{"chain": …}` merged into the current recipe (a preset is the step
    `preset:NAME`), or `{"recipe": …}` replacing it. An editor's own
    render is committed with `POST /v1/assets/{id}/editing-output`.

    Args:
        id (str):
        if_match (str):
        body (ChainEdit | RecipeEdit):

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
    body: ChainEdit | RecipeEdit,
    if_match: str,
) -> Asset | Problem | None:
    """Apply a chain, a recipe or a preset.

     `{"chain": …}` merged into the current recipe (a preset is the step
    `preset:NAME`), or `{"recipe": …}` replacing it. An editor's own
    render is committed with `POST /v1/assets/{id}/editing-output`.

    Args:
        id (str):
        if_match (str):
        body (ChainEdit | RecipeEdit):

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
    body: ChainEdit | RecipeEdit,
    if_match: str,
) -> Response[Asset | Problem]:
    """Apply a chain, a recipe or a preset.

     `{"chain": …}` merged into the current recipe (a preset is the step
    `preset:NAME`), or `{"recipe": …}` replacing it. An editor's own
    render is committed with `POST /v1/assets/{id}/editing-output`.

    Args:
        id (str):
        if_match (str):
        body (ChainEdit | RecipeEdit):

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
    body: ChainEdit | RecipeEdit,
    if_match: str,
) -> Asset | Problem | None:
    """Apply a chain, a recipe or a preset.

     `{"chain": …}` merged into the current recipe (a preset is the step
    `preset:NAME`), or `{"recipe": …}` replacing it. An editor's own
    render is committed with `POST /v1/assets/{id}/editing-output`.

    Args:
        id (str):
        if_match (str):
        body (ChainEdit | RecipeEdit):

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
