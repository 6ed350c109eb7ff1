from http import HTTPStatus
from typing import Any

import httpx

from ...client import AuthenticatedClient, Client
from ...models.export_job import ExportJob
from ...models.export_request import ExportRequest
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    *,
    body: ExportRequest,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/exports",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ExportJob | Problem:
    if response.status_code == 202:
        response_202 = ExportJob.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())

        return response_404

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())

        return response_429

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[ExportJob | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ExportRequest,
) -> Response[ExportJob | Problem]:
    """Export photos (ids or a query) with a preset and/or settings; the files are downloadable one by one
    and as one ZIP.

    Args:
        body (ExportRequest): Photos by `ids` or by a `where` query (not both; at most 1000),
            exported with a `preset` and/or `settings` (the export settings by name: format, quality,
            long-edge, sharpen, metadata, watermark, name…; the same as the render's parameters).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportJob | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    body: ExportRequest,
) -> ExportJob | Problem | None:
    """Export photos (ids or a query) with a preset and/or settings; the files are downloadable one by one
    and as one ZIP.

    Args:
        body (ExportRequest): Photos by `ids` or by a `where` query (not both; at most 1000),
            exported with a `preset` and/or `settings` (the export settings by name: format, quality,
            long-edge, sharpen, metadata, watermark, name…; the same as the render's parameters).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportJob | Problem
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: ExportRequest,
) -> Response[ExportJob | Problem]:
    """Export photos (ids or a query) with a preset and/or settings; the files are downloadable one by one
    and as one ZIP.

    Args:
        body (ExportRequest): Photos by `ids` or by a `where` query (not both; at most 1000),
            exported with a `preset` and/or `settings` (the export settings by name: format, quality,
            long-edge, sharpen, metadata, watermark, name…; the same as the render's parameters).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ExportJob | Problem]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    body: ExportRequest,
) -> ExportJob | Problem | None:
    """Export photos (ids or a query) with a preset and/or settings; the files are downloadable one by one
    and as one ZIP.

    Args:
        body (ExportRequest): Photos by `ids` or by a `where` query (not both; at most 1000),
            exported with a `preset` and/or `settings` (the export settings by name: format, quality,
            long-edge, sharpen, metadata, watermark, name…; the same as the render's parameters).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ExportJob | Problem
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
