/**
 * Maker-checker in a real browser, on a branch protected over the API (two
 * approvals): the branch switcher marks it; an editor (owner alice) finds
 * Propose in place of Publish on a rule's page and a workflow's, saves an
 * edit and proposes it, landing on the request (its description, author,
 * field-by-field difference and test results); alice's publisher key is
 * offered no Approve, saying why, and the API refuses it (self_approval); bob and carol
 * approve, each signed in with his or her key, and Publish, disabled until
 * then with why, publishes v1 and closes the request. A request whose draft
 * is edited after it was proposed shows as stale and its approval is
 * refused (change_request_stale); it is rejected with a comment. Each step is checked through the API too;
 * axe-core checks every view.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { api } from '../helpers/api.ts';
import { expectAccessible, expectNoPageProblems, screenshot, skipReason, useConsoleBrowser } from './browser.ts';

if (skipReason) console.warn(skipReason);

interface Request {
  id: string;
  state: string;
  stale: boolean;
  approvals: { owner: string }[];
  publishedVersion?: string;
}

const branch = 'staging';
const who = ['aliceEditor', 'alicePublisher', 'bob', 'carol'] as const;

/** The control is disabled, and the notes it is described by say each of `reasons`. */
async function expectRefused(page: Page, control: Locator, reasons: string[]) {
  expect(await control.isDisabled()).toBe(true);
  const notes = (await control.getAttribute('aria-describedby'))?.split(' ') ?? [];
  expect(await Promise.all(notes.map((note) => page.locator(`[id="${note}"]`).textContent()))).toEqual(reasons);
}

// The workspace turns keyApprovals on just before the people sign in: read at once, not within the directory cache's 30 s.
process.env.DIRECTORY_CACHE_TTL_MS = '0';

describe.skipIf(!!skipReason)('console change requests (Chromium)', () => {
  const t = useConsoleBrowser();
  const keys = {} as Record<(typeof who)[number], string>;
  /** The API as the demo (admin) key on the protected branch, or as one of the people's keys. */
  const call = <D>(path: string, method = 'GET', body?: unknown, as?: (typeof who)[number]) =>
    api(t.runtime)<D>(path, { method, branch, ...(as && { key: keys[as] }), ...(body !== undefined && { body: JSON.stringify(body) }) });
  const requestsOf = (id: string) => `/dev/v1/rule/${id}/change-requests`;

  beforeAll(async () => {
    // The people here sign in with keys: the workspace lets its keys approve (keyApprovals, for a workspace that names no people).
    expect((await call('/dev/v1/access', 'PUT', { groups: [], people: [], keyApprovals: true })).status).toBe(200);
    expect((await call('/dev/v1/branches/staging/protection', 'PUT', { requiredApprovals: 2 })).status).toBe(200);
    const make = async (label: string, owner: string, role: string) => {
      const made = await call<{ key: string }>('/dev/v1/keys', 'POST', { label, owner, role });
      expect(made.status).toBe(201);
      return made.body.data.key;
    };
    keys.aliceEditor = await make('Alice (editor)', 'alice', 'editor');
    keys.alicePublisher = await make('Alice (publisher)', 'alice', 'publisher');
    keys.bob = await make('Bob', 'bob', 'publisher');
    keys.carol = await make('Carol', 'carol', 'publisher');
  });

  /** A fresh page signed in with the key, on the protected branch. */
  const signInAs = async (person: (typeof who)[number]) => {
    const page = await t.page();
    await page.goto(`${t.runtime.url}/console/`);
    await page.getByLabel('Service API key').fill(keys[person]);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Rules', exact: true, level: 1 }).waitFor();
    await page.getByLabel('Branch').selectOption(branch);
    await page.getByText('protected · 2 approvals', { exact: true }).waitFor();
    return page;
  };
  const open = (page: Page, hash: string) => page.evaluate((to) => (location.hash = to), hash);
  const openRequest = async (page: Page, ruleId: string, requestId: string) => {
    await open(page, `#/rules/${ruleId}/change-requests/${requestId}`);
    await page.getByRole('heading', { name: `Change request for ${ruleId}`, level: 1 }).waitFor();
  };
  const review = (page: Page) => page.getByRole('region', { name: 'Review' });
  /** Approves with a comment, and waits for what the form then says: the notice, or the refusal. */
  const approve = async (page: Page, comment: string) => {
    await review(page).getByRole('button', { name: 'Approve', exact: true }).click();
    const form = page.getByRole('form', { name: 'Approve this change' });
    await form.getByLabel('Comment').fill(comment);
    await form.getByRole('button', { name: 'Send approval' }).click();
    return form;
  };
  const stateOf = (page: Page) => page.getByRole('heading', { level: 1 }).locator('.badge').allTextContents();

  /** The request the first test proposes, which the next two review and publish. */
  let requestId: string | undefined;

  it('marks the protected branch, offers Propose in place of Publish on a rule and a workflow, and proposes the saved draft', async () => {
    const created = await call('/dev/v1/rule', 'POST', {
      id: 'cr-fee',
      name: 'Fee',
      description: 'The fee',
      type: 'simpleRule',
      definition: { when: 'amount > 10', then: { fee: 2 }, otherwise: { fee: 0 }, tests: [{ name: 'big', params: { amount: 20 }, expected: { fee: 2 } }] },
    });
    expect(created.status).toBe(201);

    // The editor: the switcher marks the branch; Propose stands where Publish was, on a rule and on a workflow.
    const alice = await signInAs('aliceEditor');
    expect(await alice.getByLabel('Branch').locator('option:checked').textContent()).toBe('staging (protected · 2 approvals)');
    await open(alice, '#/rules/cr-fee');
    await alice.getByRole('tab', { name: 'Propose and versions' }).click();
    expect(await alice.getByRole('button', { name: 'Publish draft' }).count()).toBe(0);
    // Only the saved draft is proposed: an edit waits for its save.
    await alice.getByRole('tab', { name: 'Definition' }).click();
    await alice.getByLabel('Description', { exact: true }).fill('The fee on large amounts');
    await alice.getByRole('tab', { name: 'Propose and versions' }).click();
    const propose = alice.getByRole('button', { name: 'Propose', exact: true });
    expect(await propose.isDisabled()).toBe(true);
    await alice.getByRole('button', { name: 'Save', exact: true }).click();
    await alice.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    await expect.poll(() => propose.isDisabled()).toBe(false);
    await propose.click();
    const form = alice.getByRole('form', { name: 'Propose the saved draft' });
    await form.getByLabel('Description').fill('Charge the fee on large amounts only');
    await expectAccessible(alice, 'the propose form');
    await screenshot(alice, 'change-request-propose');
    await form.getByRole('button', { name: 'Propose change' }).click();

    // The request it opens: open, by alice, with the description changed and the case run.
    await alice.getByRole('heading', { name: 'Change request for cr-fee', level: 1 }).waitFor();
    requestId = /change-requests\/(cr_[0-9a-f]+)$/.exec(alice.url())![1]!;
    expect(await stateOf(alice)).toEqual(['open']);
    expect(await alice.getByRole('region', { name: 'Description' }).textContent()).toContain('Charge the fee on large amounts only');
    expect(await alice.locator('dl.facts').textContent()).toContain('alice');
    const changes = alice.getByRole('table', { name: /^Each field that changes/ });
    expect(await changes.getByRole('rowheader', { name: 'description', exact: true }).count()).toBe(1);
    expect(await changes.locator('td.diff-added').filter({ hasText: '"The fee on large amounts"' }).count()).toBe(1);
    expect(await alice.getByRole('region', { name: 'Test cases' }).textContent()).toContain('1 of 1 passed when it was proposed');
    // An editor may neither approve nor publish; Publish waits for the approvals too.
    await expectRefused(alice, review(alice).getByRole('button', { name: 'Approve', exact: true }), [
      'Your key (role editor) cannot approve a change request: that needs the permission approve.',
      'alice, whose key you use, proposed this change: another person approves it.',
    ]);
    await expectRefused(alice, review(alice).getByRole('button', { name: 'Publish', exact: true }), [
      'Your key (role editor) cannot publish the draft as the next version: that needs the permission publish.',
      'Publish waits for 2 approvals; it has 0.',
    ]);
    await screenshot(alice, 'change-request-open');
    await expectAccessible(alice, 'an open change request');
    const proposed = await call<Request>(`${requestsOf('cr-fee')}/${requestId}`);
    expect(proposed.body.data).toMatchObject({ state: 'open', stale: false, author: { owner: 'alice' }, description: 'Charge the fee on large amounts only' });

    // The rule's page lists it; so does a workflow's page offer Propose in place of Publish.
    await open(alice, '#/rules/cr-fee');
    await alice.getByRole('tab', { name: 'Propose and versions' }).click();
    const listed = alice.getByRole('table', { name: 'Change requests of cr-fee, newest first' });
    await listed.getByRole('link', { name: 'Charge the fee on large amounts only' }).waitFor();
    await open(alice, '#/workflows/loan-application');
    await alice.locator('svg.step-graph').waitFor();
    expect(await alice.getByRole('button', { name: 'Publish', exact: true }).count()).toBe(0);
    await alice.getByRole('button', { name: 'Propose', exact: true }).click();
    await alice.getByRole('form', { name: 'Propose the saved draft' }).getByRole('button', { name: 'Cancel' }).click();
    expectNoPageProblems(alice);
  });

  it('offers the author no Approve, with her other key either, and the API refuses it in its words', async () => {
    expect(requestId, 'the request the test before proposed').toBeDefined();
    // Alice again, with a key that may approve: Approve is disabled, saying why, and the API refuses the author's own approval all the same.
    const aliceAgain = await signInAs('alicePublisher');
    await openRequest(aliceAgain, 'cr-fee', requestId!);
    await expectRefused(aliceAgain, review(aliceAgain).getByRole('button', { name: 'Approve', exact: true }), [
      'alice, whose key you use, proposed this change: another person approves it.',
    ]);
    const refused = await call<unknown>(`${requestsOf('cr-fee')}/${requestId}/approve`, 'POST', { comment: 'Mine, but fine' }, 'alicePublisher');
    expect(refused.status).toBe(403);
    expect(JSON.stringify(refused.body)).toContain('self_approval');
    await screenshot(aliceAgain, 'change-request-self-approval');
    expect((await call<Request>(`${requestsOf('cr-fee')}/${requestId}`)).body.data.approvals).toEqual([]);
    expectNoPageProblems(aliceAgain);
  });

  it('enables Publish once two others approved, publishes v1 and closes the request', async () => {
    expect(requestId, 'the request the first test proposed').toBeDefined();
    // Bob approves: one of two.
    const bob = await signInAs('bob');
    await openRequest(bob, 'cr-fee', requestId!);
    await approve(bob, 'Checked the threshold');
    await bob.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
    const reviews = bob.getByRole('region', { name: 'Approvals and comments' });
    await expect.poll(async () => (await reviews.textContent()) ?? '').toContain('Checked the threshold');
    await expectRefused(bob, review(bob).getByRole('button', { name: 'Publish', exact: true }), ['Publish waits for 2 approvals; it has 1.']);

    // Carol approves: Publish is enabled, publishes v1 and the request closes as published.
    const carol = await signInAs('carol');
    await openRequest(carol, 'cr-fee', requestId!);
    await approve(carol, 'Fine by me');
    await carol.getByRole('status').filter({ hasText: 'Approved.' }).waitFor();
    const publish = review(carol).getByRole('button', { name: 'Publish', exact: true });
    await expect.poll(() => publish.isDisabled()).toBe(false);
    await publish.click();
    await carol.getByRole('status').filter({ hasText: 'Published as v1.' }).waitFor();
    await expect.poll(() => stateOf(carol)).toEqual(['published']);
    expect(await carol.locator('dl.facts').textContent()).toContain('Published asv1');
    expect(await review(carol).count()).toBe(0);
    const reviewed = await carol.getByRole('region', { name: 'Approvals and comments' }).locator('li strong').allTextContents();
    expect(reviewed).toEqual(['bob', 'carol']);
    await screenshot(carol, 'change-request-published');
    await expectAccessible(carol, 'a published change request');
    const closed = (await call<Request>(`${requestsOf('cr-fee')}/${requestId}`)).body.data;
    expect(closed).toMatchObject({ state: 'published', publishedVersion: 'v1' });
    expect((await call<{ version: string }>('/dev/v1/rule/cr-fee')).body.data.version).toBe('v1');
    for (const page of [bob, carol]) expectNoPageProblems(page);
  });

  it('marks a request stale once its draft is edited, shows the refused approval in the API’s words, and rejects it', async () => {
    expect(
      (await call('/dev/v1/rule', 'POST', { id: 'cr-stale', name: 'Stale', type: 'simpleRule', definition: { when: 'true', then: { y: 1 } } })).status,
    ).toBe(201);
    const draft = (await call<{ checksum: string }>('/dev/v1/rule/cr-stale')).body.data;
    const proposed = await call<Request>(requestsOf('cr-stale'), 'POST', { checksum: draft.checksum, description: 'First cut' }, 'aliceEditor');
    expect(proposed.status).toBe(201);
    const requestId = proposed.body.data.id;

    // Bob opens it fresh; alice edits the draft meanwhile; his approval is refused, and the page reads the request again.
    const bob = await signInAs('bob');
    await openRequest(bob, 'cr-stale', requestId);
    expect(await stateOf(bob)).toEqual(['open']);
    expect((await call('/dev/v1/rule/cr-stale', 'PATCH', { checksum: draft.checksum, description: 'Edited after' }, 'aliceEditor')).status).toBe(200);
    const refused = await approve(bob, 'Looks fine');
    await expect
      .poll(async () => (await refused.getByRole('alert').textContent()) ?? '')
      .toContain('The draft was edited, or a version published, after the change request');
    expect(await refused.getByRole('alert').textContent()).toContain('HTTP 409 · change_request_stale');
    await expect.poll(() => stateOf(bob)).toEqual(['open', 'stale']);
    await bob.getByText('Stale: the draft was edited after this request proposed it').waitFor();
    await expectRefused(bob, review(bob).getByRole('button', { name: 'Publish', exact: true }), [
      'Publish waits for the draft as it is now to be proposed and approved: this request is stale.',
    ]);
    await screenshot(bob, 'change-request-stale');
    await expectAccessible(bob, 'a stale change request');
    expect((await call<Request>(`${requestsOf('cr-stale')}/${requestId}`)).body.data).toMatchObject({ state: 'open', stale: true, approvals: [] });

    // Rejected with a comment: closed, and the rejection shown with it.
    await review(bob).getByRole('button', { name: 'Reject', exact: true }).click();
    const reject = bob.getByRole('form', { name: 'Reject this change' });
    await reject.getByLabel('Comment').fill('Propose the edited draft instead');
    await reject.getByRole('button', { name: 'Send rejection' }).click();
    await bob.getByRole('status').filter({ hasText: 'Rejected: the request is closed.' }).waitFor();
    await expect.poll(() => stateOf(bob)).toEqual(['rejected']);
    expect(await review(bob).count()).toBe(0);
    const rejection = bob.getByRole('region', { name: 'Approvals and comments' }).getByRole('listitem');
    expect(await rejection.textContent()).toMatch(/^bob rejected .*Propose the edited draft instead$/);
    expect((await call<Request>(`${requestsOf('cr-stale')}/${requestId}`)).body.data).toMatchObject({ state: 'rejected' });
    expectNoPageProblems(bob);
  });
});
