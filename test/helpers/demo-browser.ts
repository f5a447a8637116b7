/**
 * A stand-in for a person at a browser, to run as `$BROWSER` for
 * `rules sign-in` against the local OpenID provider: takes the sign-in
 * address (its last argument), signs in as the demo person its `login_hint`
 * names with their password (lib/local/demo-people.ts), through the
 * provider's real sign-in page (./sign-in.ts's browseSignIn), and then
 * follows the provider's redirect back to the CLI's loopback callback, as the
 * browser would.
 *
 * `--forge NAME=VALUE` changes a parameter of the way back before following
 * it (`--forge state=guessed`): a forged or stale callback, which the CLI must
 * refuse. It prints no code and no token; a failure goes to standard error
 * and exits 1.
 *
 * @example
 * BROWSER="node_modules/.bin/tsx test/helpers/demo-browser.ts" npm run -s cli -- sign-in --api http://127.0.0.1:3000 --workspace demo --login-hint ana
 */
import { parseArgs } from 'node:util';
import { demoPeople } from '../../lib/local/demo-people.ts';
import { browseSignIn } from './sign-in.ts';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { forge: { type: 'string', multiple: true } } });
const address = new URL(positionals.at(-1) ?? '');
const person = demoPeople.find((p) => p.username === address.searchParams.get('login_hint'));
const redirectUri = address.searchParams.get('redirect_uri');
try {
  if (!person) throw new Error(`the address names no demo person in login_hint (${demoPeople.map((p) => p.username).join(', ')})`);
  if (!redirectUri) throw new Error('the address has no redirect_uri');
  const back = await browseSignIn(address.href, redirectUri, person);
  for (const forged of values.forge ?? []) {
    const at = forged.indexOf('=');
    back.searchParams.set(forged.slice(0, at), forged.slice(at + 1));
  }
  const answer = await fetch(back);
  await answer.text();
} catch (error) {
  console.error(`demo-browser: ${(error as Error).message}`);
  process.exitCode = 1;
}
