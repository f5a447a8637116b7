import { describe, expect, it } from 'vitest';
import { routeList, routes } from '../../lib/api/routes.ts';
import type { HttpMethod, Route } from '../../lib/http/route.ts';
import { createRouter } from '../../lib/local/router.ts';

/** A route of the service with another method and path: the router looks at nothing else. */
const route = (method: HttpMethod, path: string): Route => ({ ...routes.getEntity, operationId: `${method} ${path}`, method, path });

const matched = (match: ReturnType<ReturnType<typeof createRouter>>) =>
  match && 'route' in match ? { operationId: match.route.operationId, pathParameters: match.pathParameters } : match;

describe('createRouter', () => {
  const match = createRouter([
    route('GET', '/things/{id}'),
    route('DELETE', '/things/{id}'),
    route('GET', '/things/special'),
    route('GET', '/a/{x}/c'),
    route('GET', '/a/b/d'),
    route('POST', '/things/{id}/notes/{noteId}'),
  ]);

  it('fills path parameters from variable segments', () => {
    expect(matched(match('GET', '/things/42'))).toEqual({ operationId: 'GET /things/{id}', pathParameters: { id: '42' } });
    expect(matched(match('POST', '/things/42/notes/7'))).toEqual({
      operationId: 'POST /things/{id}/notes/{noteId}',
      pathParameters: { id: '42', noteId: '7' },
    });
  });

  it('prefers a static segment over a variable one', () => {
    expect(matched(match('GET', '/things/special'))).toEqual({ operationId: 'GET /things/special', pathParameters: {} });
  });

  it('does not backtrack into the variable branch once a static segment matched', () => {
    // "/a/{x}/c" would fit "/a/b/c", but "b" took the static branch, which has no "c": API Gateway answers 404 too.
    expect(match('GET', '/a/b/c')).toBeUndefined();
    expect(matched(match('GET', '/a/z/c'))).toEqual({ operationId: 'GET /a/{x}/c', pathParameters: { x: 'z' } });
  });

  it('answers a known path with another method with the methods it allows', () => {
    expect(match('PUT', '/things/42')).toEqual({ allowed: ['GET', 'DELETE'] });
    // The static resource has only GET; DELETE of the variable one does not apply to it.
    expect(match('DELETE', '/things/special')).toEqual({ allowed: ['GET'] });
  });

  it('finds no route for unknown paths, nor for resources that only lead to methods', () => {
    expect(match('GET', '/nothing')).toBeUndefined();
    expect(match('GET', '/things')).toBeUndefined(); // an inner resource without methods
    expect(match('GET', '/')).toBeUndefined();
    expect(match('GET', '/things/42/extra')).toBeUndefined();
  });

  it('decodes each segment once, after splitting, so an encoded "/" stays inside its parameter', () => {
    const id = (path: string) => matched(match('GET', path));
    expect(id('/things/a%20b')).toEqual({ operationId: 'GET /things/{id}', pathParameters: { id: 'a b' } });
    expect(id('/things/a%2Fb')).toEqual({ operationId: 'GET /things/{id}', pathParameters: { id: 'a/b' } });
    expect(id('/things/%25')).toEqual({ operationId: 'GET /things/{id}', pathParameters: { id: '%' } });
    expect(id('/things/%C3%A9')).toEqual({ operationId: 'GET /things/{id}', pathParameters: { id: 'é' } });
  });

  it('finds no route for a segment that is not valid percent-encoding', () => {
    expect(match('GET', '/things/%E0%A4%A')).toBeUndefined();
    expect(match('GET', '/things/%')).toBeUndefined();
  });
});

describe('the service route table', () => {
  const match = createRouter(routeList);

  it.each([
    ['/dev/rule', 'listEntitiesLegacy', { entityType: 'rule' }],
    ['/dev/workflow', 'listEntitiesLegacy', { entityType: 'workflow' }],
    ['/dev/v1/rule', 'listEntities', { entityType: 'rule' }],
    ['/dev/rule/shipping-cost', 'getEntityLegacy', { entityType: 'rule', entityId: 'shipping-cost' }],
    ['/dev/v1/workflow/checkout', 'getEntity', { entityType: 'workflow', entityId: 'checkout' }],
  ])('routes GET %s to %s', (path, operationId, pathParameters) => {
    expect(matched(match('GET', path))).toEqual({ operationId, pathParameters });
  });

  it('takes "v1" as the static prefix, never as an entity type', () => {
    // Static beats variable: /dev/v1 is the v1 prefix resource, which has no method of its own.
    expect(match('GET', '/dev/v1')).toBeUndefined();
  });

  it('allows only GET on the legacy entity paths, and the authoring methods on /dev/v1', () => {
    expect(match('POST', '/dev/rule')).toEqual({ allowed: ['GET'] });
    expect(match('DELETE', '/dev/rule/x')).toEqual({ allowed: ['GET'] });
    expect(matched(match('DELETE', '/dev/v1/rule/x'))).toEqual({ operationId: 'deleteEntity', pathParameters: { entityType: 'rule', entityId: 'x' } });
    expect(match('PUT', '/dev/v1/rule/x')).toEqual({ allowed: ['GET', 'PATCH', 'DELETE'] });
    expect(match('GET', '/dev/v1/rule/x/execute')).toEqual({ allowed: ['POST'] });
  });
});
