/** The answers of the workspace's operations (lib/workspaces): its branches, the caller's key, and the keys. */
import { z } from 'zod';
import { permissions, roleNames, type Role } from '../../vocabulary/permissions.ts';
import type { KeyView } from '../../workspaces/keys.ts';
import type { workspaceRoutes } from '../../workspaces/routes.ts';
import { timestamp, type ResponsesOf } from './shared.ts';

const roleSchema = z.enum(roleNames as [Role, ...Role[]]);

/** An API key as the key operations show it: never its secret. */
const keySchema = z.object({
  keyId: z.string(),
  label: z.string(),
  owner: z.string().describe('the person or system it belongs to'),
  role: roleSchema,
  branches: z.array(z.string()).optional().describe('the branches it is limited to; absent, every branch'),
  createdAt: z.string(),
  expiresAt: z.string().optional(),
  revokedAt: z.string().optional(),
  vouchedBy: z.string().optional().describe('the key that made it or last changed its owner, and answers for that owner; absent for a key the operator made'),
  ownerFixedAt: z.string().optional().describe('when it first proposed or approved a change request: its owner cannot change since'),
  person: z
    .object({ issuer: z.string(), subject: z.string(), email: z.string().optional() })
    .optional()
    .describe("a personal key's person: who the issuer says made it"),
  state: z.enum(['active', 'expired', 'revoked']),
}) satisfies z.ZodType<KeyView>;

const grantFields = { role: roleSchema, branches: z.array(z.string()).optional().describe('the branches it is limited to; absent, every branch') };
const accessSchema = z.object({
  groups: z.array(z.object({ group: z.string().describe("a group as the issuer's groups claim names it"), ...grantFields })),
  people: z.array(z.object({ email: z.string().describe('a verified e-mail, in lower case'), ...grantFields })),
  keyApprovals: z.boolean().describe('whether API keys approve change requests here: only while the mapping names no group or person'),
  updatedAt: z.string().describe("when it was last replaced ('' before the first time)"),
});

export const workspaceResponses = {
  getSignIn: {
    data: z
      .object({
        issuer: z.string().describe('the `iss` of the tokens the API takes; its discovery document is at `<issuer>/.well-known/openid-configuration`'),
        clientId: z.string().describe("the console's client id: the audience of the tokens the API takes"),
        groupsClaim: z.string().describe("the claim of the ID token that lists the person's groups"),
        scope: z.string().describe('the scopes to ask for'),
        signOutUrl: z
          .string()
          .optional()
          .describe("the issuer's sign-out page, where its discovery document names none (Cognito's `/logout`, with `client_id` and `logout_uri`)"),
        cliRedirectUris: z.array(z.string()).describe("where the CLI's sign-in comes back to (a loopback redirect)"),
      })
      .nullable(),
  },
  listBranches: {
    data: z.array(
      z.object({
        name: z.string(),
        default: z.boolean().describe('the branch used when a request names none'),
        createdAt: timestamp,
        requiredApprovals: z.number().int().describe('approvals a change request needs before it is published here; 0: not protected'),
      }),
    ),
  },
  getCaller: {
    data: z.object({
      keyId: z.string(),
      owner: z.string(),
      role: roleSchema,
      permissions: z.array(z.enum(permissions)).describe('what the role grants'),
      branches: z.array(z.string()).nullable().describe('the branches the key is limited to; null: every branch'),
      workspace: z.object({ id: z.string(), name: z.string(), defaultBranch: z.string() }),
      approves: z
        .boolean()
        .describe(
          "whether the caller's approvals of change requests are taken: a person's, always; a key's, only where the workspace's mapping turns keyApprovals on",
        ),
      person: z
        .object({ issuer: z.string(), subject: z.string(), email: z.string().optional() })
        .optional()
        .describe('a person signed in: who the issuer says they are (role, permissions and branches are then their widest)'),
      grants: z
        .array(z.object({ role: roleSchema, branches: z.array(z.string()).nullable() }))
        .optional()
        .describe("a person's grants here, from their groups and e-mail"),
    }),
  },
  createKey: { data: keySchema.extend({ key: z.string().describe('the key itself: shown this once, only its hash is kept') }), created: true },
  listKeys: { data: z.array(keySchema) },
  getKey: { data: keySchema },
  updateKey: { data: keySchema },
  revokeKey: { data: keySchema.describe('the key, revoked') },
  createPersonalKey: { data: keySchema.extend({ key: z.string().describe('the key itself: shown this once, only its hash is kept') }), created: true },
  getAccess: { data: accessSchema },
  putAccess: { data: accessSchema },
} satisfies ResponsesOf<typeof workspaceRoutes>;
