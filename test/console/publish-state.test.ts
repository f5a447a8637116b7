/** When the rule's Publish buttons wait, and what they say: from the rule's get, as the publish itself compares (status, candidate). */
import { describe, expect, it } from 'vitest';
import { publishHeld } from '../../lib/console/web/rules/publish-state.ts';

const rule = (fields: { status: 'draft' | 'published'; version?: string; candidate?: { version: string; checksum: string } }) => ({
  checksum: 'c2',
  version: '',
  ...fields,
});

describe('publishHeld', () => {
  it('lets a saved draft that is no version go, served or as candidate', () => {
    expect(publishHeld(rule({ status: 'draft' }), false, 'served')).toBeUndefined();
    expect(publishHeld(rule({ status: 'draft', version: 'v1' }), false, 'candidate')).toBeUndefined();
  });

  it('waits for a save first, whatever the draft is', () => {
    expect(publishHeld(rule({ status: 'draft' }), true, 'served')).toBe('Save your changes first: only the saved draft is published.');
    expect(publishHeld(rule({ status: 'published', version: 'v1' }), true, 'served', 'proposed')).toBe(
      'Save your changes first: only the saved draft is proposed.',
    );
  });

  it('holds a draft that is the latest version, naming it', () => {
    const held = publishHeld(rule({ status: 'published', version: 'v3' }), false, 'served');
    expect(held).toMatch(/^Nothing new to publish: the saved draft is the latest version, v3\./);
    expect(publishHeld(rule({ status: 'published', version: 'v3' }), false, 'candidate')).toBe(held);
  });

  it('holds a draft that is the candidate as a candidate, and lets it be published to be served (which promotes it)', () => {
    const candidate = { version: 'v4', checksum: 'c2' };
    expect(publishHeld(rule({ status: 'draft', version: 'v3', candidate }), false, 'candidate')).toMatch(/^The saved draft is already the candidate, v4\./);
    expect(publishHeld(rule({ status: 'draft', version: 'v3', candidate }), false, 'served')).toBeUndefined();
    expect(publishHeld(rule({ status: 'draft', version: 'v3', candidate: { version: 'v4', checksum: 'other' } }), false, 'candidate')).toBeUndefined();
  });
});
