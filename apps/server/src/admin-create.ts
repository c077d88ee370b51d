/**
 * `npm run admin:create -- --account <e-mail or phone> [--name <display name>] [--url <base url>] [--force]`:
 * the first admin of an installation started without demo data. Opens the configured database
 * (the server's DATABASE_URL or DATA_DIR), applies the migrations, makes an active admin who
 * cannot sign in yet, and prints a one-time link (30 minutes) where they set their password.
 * Refuses an account that exists; refuses when an active admin exists unless --force (after that,
 * admins add staff from the console). Audited as `staff.create` with no actor.
 * `--new-link` instead prints a new link for an existing operator or admin (the first link
 * expired, or no admin can sign in any more), audited as `staff.invite`.
 */
import { parseArgs } from 'node:util';
import { checkAccount, checkDisplayName, normalizeAccount } from '@pa/shared';
import { createContext } from './bootstrap';
import { Refused, runCommand } from './cli';
import { loadConfig } from './config';
import { accountTaken, countActiveAdmins, findStaffByAccount } from './modules/staff/repository';
import { createStaff, reinvite } from './modules/staff/service';
import { AppError } from './platform/errors';

const USAGE = 'Usage: npm run admin:create -- --account <e-mail or phone> [--name <display name>] [--url <public address, e.g. https://promo.example.com/>] [--force | --new-link]';

function readArguments(argv: string[]) {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { account: { type: 'string' }, name: { type: 'string' }, url: { type: 'string' }, force: { type: 'boolean' }, 'new-link': { type: 'boolean' } }, strict: true, allowPositionals: false });
  } catch (error) {
    throw new Refused(`${(error as Error).message}\n${USAGE}`);
  }
  const { account = '', name = 'Admin', url, force = false, 'new-link': newLink = false } = parsed.values;
  if (!account.trim()) throw new Refused(`--account is required.\n${USAGE}`);
  if (checkAccount(account)) throw new Refused(`--account "${account}" is not an e-mail address or phone number in international form (+8613800138000).`);
  const nameProblem = checkDisplayName(name);
  if (nameProblem === 'control_characters') throw new Refused('--name must not hold line breaks, tabs or other control characters.');
  if (nameProblem) throw new Refused(`--name must be 2 to 32 characters (${nameProblem}).`);
  return { account: normalizeAccount(account), name: name.trim(), url, force, newLink };
}

/** Where the link points: --url, else PUBLIC_URL, else this machine's port. Only http(s) addresses. */
function baseUrl(url: string | undefined, port: number): string {
  const given = url ?? (process.env.PUBLIC_URL?.trim() || undefined);
  if (!given) return `http://localhost:${port}`;
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw new Refused(`--url (or PUBLIC_URL) "${given}" is not an address; give the one people open the app at, e.g. https://promo.example.com/`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Refused(`--url (or PUBLIC_URL) must start with https:// or http://; got "${given}".`);
  return `${parsed.origin}${parsed.pathname}`;
}

async function main(): Promise<number> {
  const args = readArguments(process.argv.slice(2));
  const config = loadConfig();
  const origin = baseUrl(args.url, config.port);
  const { ctx, handle } = await createContext(config);
  try {
    const existing = await findStaffByAccount(ctx.db, args.account);
    let invite;
    if (args.newLink) {
      if (!existing) throw new Refused(`No operator or admin has the account ${args.account}; leave out --new-link to create an admin.`);
      invite = await reinvite(ctx, existing.id, origin, { userId: null, ip: null });
    } else {
      if (existing || (await accountTaken(ctx.db, args.account))) {
        throw new Refused(`The account ${args.account} already exists; choose another one${existing ? ', or add --new-link for a new set-password link for it' : ''}.`);
      }
      const admins = await countActiveAdmins(ctx.db);
      if (admins > 0 && !args.force) {
        throw new Refused(`This installation already has ${admins} active admin${admins === 1 ? '' : 's'}: add staff from the console (Staff, #/admin/staff). To add another admin from here anyway (for instance when no admin can sign in any more), repeat with --force.`);
      }
      invite = await createStaff(ctx, { account: args.account, displayName: args.name, role: 'admin', locale: 'en', origin, via: 'admin:create' }, { userId: null, ip: null }).catch((error: unknown) => {
        if (error instanceof AppError && error.code === 'ACCOUNT_EXISTS') throw new Refused(`The account ${args.account} already exists; choose another one.`);
        throw error;
      });
    }
    const minutes = Math.round((invite.expiresAt - Date.now()) / 60_000);
    process.stdout.write(
      `${args.newLink ? `New set-password link for ${invite.user.role}` : 'Admin'} ${invite.user.account} (${invite.user.displayName})${args.newLink ? '' : ' created'}.\n` +
        `Open this link within ${minutes} minutes to set the password (it works once; shown only now):\n\n  ${invite.inviteUrl}\n\n` +
        `If it expires: npm run admin:create -- --account ${invite.user.account} --new-link\n`,
    );
    return 0;
  } finally {
    await ctx.clicks.flush();
    await handle.close();
  }
}

runCommand(main);
