from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...models.preset import Preset
from ...models.problem import Problem
from ...types import File, Response


def _get_kwargs(
    name: str,
    *,
    body: File,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/v1/presets/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    _kwargs["content"] = body.payload
    headers["Content-Type"] = "application/octet-stream"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Preset | Problem:
    if response.status_code == 201:
        response_201 = Preset.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())

        return response_400

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())

        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())

        return response_413

    response_default = Problem.from_dict(response.json())

    return response_default


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Preset | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> Response[Preset | Problem]:
    """Add a Lightroom / Camera Raw develop preset (.xmp) to the library, applied as the chain step
    preset:NAME.xmp.

     The body is the .xmp file (at most 1 MiB). It is read as `photoedit
    apply preset:FILE.xmp` reads it; a file that is not a Lightroom preset
    is 400 `invalid-preset`, nothing stored. A name taken already (an
    uploaded preset or one of the search path) is 409 `preset-exists`:
    uploaded presets are never replaced.

    Args:
        name (str):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Preset | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> Preset | Problem | None:
    """Add a Lightroom / Camera Raw develop preset (.xmp) to the library, applied as the chain step
    preset:NAME.xmp.

     The body is the .xmp file (at most 1 MiB). It is read as `photoedit
    apply preset:FILE.xmp` reads it; a file that is not a Lightroom preset
    is 400 `invalid-preset`, nothing stored. A name taken already (an
    uploaded preset or one of the search path) is 409 `preset-exists`:
    uploaded presets are never replaced.

    Args:
        name (str):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Preset | Problem
    """

    return sync_detailed(
        name=name,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> Response[Preset | Problem]:
    """Add a Lightroom / Camera Raw develop preset (.xmp) to the library, applied as the chain step
    preset:NAME.xmp.

     The body is the .xmp file (at most 1 MiB). It is read as `photoedit
    apply preset:FILE.xmp` reads it; a file that is not a Lightroom preset
    is 400 `invalid-preset`, nothing stored. A name taken already (an
    uploaded preset or one of the search path) is 409 `preset-exists`:
    uploaded presets are never replaced.

    Args:
        name (str):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Preset | Problem]
    """

    kwargs = _get_kwargs(
        name=name,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    name: str,
    *,
    client: AuthenticatedClient | Client,
    body: File,
) -> Preset | Problem | None:
    """Add a Lightroom / Camera Raw develop preset (.xmp) to the library, applied as the chain step
    preset:NAME.xmp.

     The body is the .xmp file (at most 1 MiB). It is read as `photoedit
    apply preset:FILE.xmp` reads it; a file that is not a Lightroom preset
    is 400 `invalid-preset`, nothing stored. A name taken already (an
    uploaded preset or one of the search path) is 409 `preset-exists`:
    uploaded presets are never replaced.

    Args:
        name (str):
        body (File):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Preset | Problem
    """

    return (
        await asyncio_detailed(
            name=name,
            client=client,
            body=body,
        )
    ).parsed
