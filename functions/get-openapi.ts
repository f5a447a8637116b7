/**
 * GET /openapi.json: the committed contract, with `servers` set to the URL
 * it was fetched from, so that a tool pointed at it calls the same API. It
 * imports the written JSON rather than the code that generates it, which
 * keeps the function small, and needs no key or table.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import document from '../lib/openapi/openapi.json' with { type: 'json' };
import { requestIdHeader } from '../lib/http/envelope.ts';
import { localStage } from '../lib/local/proxy-event.ts';

/** The API's base URL as the caller reached it: the stage is part of it on AWS, not in the local runtime. */
function serverUrl(event: APIGatewayProxyEvent): string {
  const host = Object.entries(event.headers ?? {}).find(([name]) => name.toLowerCase() === 'host')?.[1];
  const { stage } = event.requestContext;
  return stage === localStage ? `http://${host}` : `https://${host}/${stage}`;
}

export const handler = async (event: APIGatewayProxyEvent): Promise<APIGatewayProxyResult> => ({
  statusCode: 200,
  headers: { 'content-type': 'application/json', [requestIdHeader]: event.requestContext.requestId },
  body: JSON.stringify({ ...document, servers: [{ url: serverUrl(event), description: 'The API this document was fetched from' }] }),
});
