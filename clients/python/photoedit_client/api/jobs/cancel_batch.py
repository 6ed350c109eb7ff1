from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.batch_status import BatchStatus
from ...models.problem import Problem
from ...types import Response


def _get_kwargs(
    batch: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "delete",
        "url": "/v1/jobs/{batch}".format(
            batch=quote(str(batch), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BatchStatus | Problem:
    if response.status_code == 200:
        response_200 = BatchStatus.from_dict(response.json())

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
) -> Response[BatchStatus | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    batch: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[BatchStatus | Problem]:
    """Cancel what of the batch has not run (a running job stops at its next photo; edits made stay).

    Args:
        batch (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchStatus | Problem]
    """

    kwargs = _get_kwargs(
        batch=batch,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    batch: str,
    *,
    client: AuthenticatedClient | Client,
) -> BatchStatus | Problem | None:
    """Cancel what of the batch has not run (a running job stops at its next photo; edits made stay).

    Args:
        batch (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchStatus | Problem
    """

    return sync_detailed(
        batch=batch,
        client=client,
    ).parsed


async def asyncio_detailed(
    batch: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[BatchStatus | Problem]:
    """Cancel what of the batch has not run (a running job stops at its next photo; edits made stay).

    Args:
        batch (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchStatus | Problem]
    """

    kwargs = _get_kwargs(
        batch=batch,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    batch: str,
    *,
    client: AuthenticatedClient | Client,
) -> BatchStatus | Problem | None:
    """Cancel what of the batch has not run (a running job stops at its next photo; edits made stay).

    Args:
        batch (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchStatus | Problem
    """

    return (
        await asyncio_detailed(
            batch=batch,
            client=client,
        )
    ).parsed
