/**
 * The demo provider the local runtime starts (lib/local/demo-provider.ts):
 * it answers only with the right key, in the header on one route and in the
 * query on the other, and the seeded credentials and integrations reach it
 * through the integration test, 401 mapping included.
 */
import { describe, expect, it } from 'vitest';
import { keyringFromEnv } from '../../lib/credentials/keyring.ts';
import { demoProviderKey } from '../../lib/local/demo-provider.ts';
import { demoProviderSeed, demoWorkspaceId, seedDemoProvider } from '../../lib/local/seed.ts';
import { credentialPath, json } from '../helpers/credentials.ts';
import { expectSuccess, expectUnpaged } from '../helpers/envelope.ts';
import { integrationPath, integrationTestPath, type IntegrationTestResult, type IntegrationView } from '../helpers/integrations.ts';
import { useRuntime } from '../helpers/runtime.ts';

const t = useRuntime();
const { credentials, integrations } = demoProviderSeed;

const provider = (path: string, init: RequestInit = {}) =>
  fetch(`${t.runtime.providerUrl}${path}`, init).then(async (response) => ({
    status: response.status,
    type: response.headers.get('content-type'),
    body: await response.json(),
  }));

const payment = { amount: 1500, flags: { countryMismatch: true, velocity: false }, ruleScore: 60 };
const post = (headers: Record<string, string>) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: JSON.stringify(payment),
});

describe('the demo provider', () => {
  it('listens on loopback, at the URL the seeded integrations call', async () => {
    expect(t.runtime.providerUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    for (const { id } of Object.values(integrations))
      expect(expectUnpaged(await t.api<IntegrationView>(integrationPath(id)), 200)).toMatchObject({ baseUrl: t.runtime.providerUrl });
  });

  it('scores a payment with the key in the X-Api-Key header, by POST or GET', async () => {
    const score = { score: 75, level: 'high', decision: 'decline', reasons: ['amount of 1000 or more', 'signal countryMismatch', 'screening score 60'] };
    expect(await provider('/v1/risk-score', post({ 'X-Api-Key': demoProviderKey }))).toEqual({ status: 200, type: 'application/json', body: score });
    expect(await provider('/v1/risk-score?amount=120', { headers: { 'x-api-key': demoProviderKey } })).toMatchObject({
      status: 200,
      body: { score: 0, decision: 'approve' },
    });
  });

  it.each([
    ['no key', {}, /send the API key in the X-Api-Key header/],
    ['a wrong key', { 'X-Api-Key': 'not-the-key' }, /not valid/],
    ['the key in another header', { Authorization: demoProviderKey }, /X-Api-Key/],
  ])('refuses the risk score with %s: 401 with a JSON error', async (_, headers, message) => {
    const answer = await provider('/v1/risk-score', post(headers));
    expect(answer).toMatchObject({ status: 401, type: 'application/json', body: { error: 'unauthorized' } });
    expect(answer.body.message).toMatch(message);
  });

  it('refuses the risk score with the key in the query instead of the header', async () => {
    expect(await provider(`/v1/risk-score?amount=1&api_key=${demoProviderKey}`)).toMatchObject({ status: 401 });
  });

  it('gives a rate with the key in the api_key query parameter', async () => {
    expect(await provider(`/v1/fx-rate?from=EUR&to=USD&api_key=${demoProviderKey}`)).toEqual({
      status: 200,
      type: 'application/json',
      body: { from: 'EUR', to: 'USD', rate: 1.08, asOf: '2024-01-01' },
    });
  });

  it.each([
    ['no key', '/v1/fx-rate?from=EUR&to=USD', {}],
    ['a wrong key', '/v1/fx-rate?from=EUR&to=USD&api_key=wrong', {}],
    ['the key in the header instead of the query', '/v1/fx-rate?from=EUR&to=USD', { 'X-Api-Key': demoProviderKey }],
  ])('refuses a rate with %s: 401 with a JSON error', async (_, path, headers) => {
    expect(await provider(path, { headers })).toMatchObject({ status: 401, type: 'application/json', body: { error: 'unauthorized' } });
  });

  it('answers bad input, other paths and other methods in JSON', async () => {
    expect(await provider('/v1/risk-score', { ...post({ 'X-Api-Key': demoProviderKey }), body: '{"amount":-1}' })).toMatchObject({
      status: 400,
      body: { error: 'invalid_request' },
    });
    expect(await provider(`/v1/fx-rate?from=EUR&to=XYZ&api_key=${demoProviderKey}`)).toMatchObject({ status: 400, body: { error: 'invalid_request' } });
    expect(await provider('/v2/other')).toMatchObject({ status: 404, type: 'application/json', body: { error: 'not_found' } });
    expect(await provider('/v1/fx-rate', { method: 'DELETE' })).toMatchObject({ status: 405, body: { error: 'method_not_allowed' } });
  });
});

describe('the seeded credentials and integrations', () => {
  const testCall = async (id: string, body: unknown) => {
    const response = await t.api<IntegrationTestResult>(integrationTestPath(id), json('POST', body));
    expectSuccess(response);
    return response.body.data;
  };

  it('reach the provider through the integration test, the key placed as each credential says', async () => {
    expect(await testCall(integrations.risk.id, { method: 'POST', path: '/v1/risk-score', body: payment })).toMatchObject({
      status: 200,
      ok: true,
      body: { score: 75, decision: 'decline' },
    });
    expect(await testCall(integrations.fx.id, { path: '/v1/fx-rate', query: { from: 'GBP', to: 'EUR' } })).toMatchObject({
      status: 200,
      body: { from: 'GBP', to: 'EUR' },
    });
  });

  it('show the 401 mapping once the key is wrong, and work again once it is right', async () => {
    expectUnpaged(await t.api(credentialPath(credentials.header.id), json('PATCH', { value: 'not-the-provider-key' })), 200);
    expect(await testCall(integrations.risk.id, { method: 'POST', path: '/v1/risk-score', body: payment })).toMatchObject({
      status: 401,
      ok: false,
      message: 'the key is wrong or revoked',
      body: { error: 'unauthorized', message: 'the API key is not valid' },
    });
    expectUnpaged(await t.api(credentialPath(credentials.header.id), json('PATCH', { value: demoProviderKey })), 200);
    expect(await testCall(integrations.risk.id, { method: 'POST', path: '/v1/risk-score', body: payment })).toMatchObject({ status: 200 });
  });

  it('are seeded once: seeding again follows the provider to its URL and leaves a deleted integration deleted', async () => {
    const { store } = t.runtime;
    expect(expectUnpaged(await t.api<IntegrationView>(integrationPath(integrations.fx.id), { method: 'DELETE' }), 200)).toMatchObject({
      id: integrations.fx.id,
    });
    await seedDemoProvider({ store, keyring: keyringFromEnv() }, 'http://127.0.0.1:1');
    expect(await store.getIntegration(demoWorkspaceId, integrations.fx.id)).toBeUndefined();
    expect(await store.getIntegration(demoWorkspaceId, integrations.risk.id)).toMatchObject({ baseUrl: 'http://127.0.0.1:1', revision: 2 });
    await seedDemoProvider({ store, keyring: keyringFromEnv() }, t.runtime.providerUrl);
    expect(await store.getIntegration(demoWorkspaceId, integrations.risk.id)).toMatchObject({ baseUrl: t.runtime.providerUrl, revision: 3 });
  });
});
