/**
 * One contract (issue 15, item 6): the web declares none of the server's shapes itself. Every
 * response and request body type comes from @pa/shared (`z.infer` / `z.input` of the schema the
 * server's route uses), so a change to a schema is a compile error in the web, not a surprise at
 * run time. The scan below keeps it that way; the type-level checks at the end pin a few fetchers
 * to the schemas they answer with.
 */
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  API_SCOPES, STAFF_WITHDRAWAL_ACTIONS, WITHDRAWAL_REASON_MAX, WITHDRAWAL_REFERENCE_MAX, WITHDRAWAL_SETTING_MONEY_MAX, WITHDRAWAL_TRANSITIONS, WITHDRAWALS_PER_DAY,
  type StaffWithdrawalAction,
} from '@pa/shared/rules';
import type {
  AdminWithdrawalDetailSchema, CommissionBulkResultSchema, CommissionDetailSchema, EnrollmentActionParamsSchema, EnrollmentEnvelopeSchema, ImageUploadQuerySchema,
  NotificationListSchema, PayoutAccountEnvelopeSchema, UserActionParamsSchema, UserEnvelopeSchema, WithdrawalActionParamsSchema, WithdrawalDetailSchema, WithdrawalStatus, WithdrawalStatusSchema,
} from '@pa/shared';
import type { useCommissionBulk } from '../src/features/money/api/commission-review';
import type { useEnrollmentAction } from '../src/features/campaigns/api/enrollments';
import type { ImageKind } from '../src/features/campaigns/api/console-campaigns';
import type { UserAction } from '../src/features/promoters/api/user-action';
import { nextActions as offeredActions, type adminWithdrawalQuery, type WithdrawalAction as AdminWithdrawalAction } from '../src/features/withdrawals/api/withdrawal-queue';
import type { login } from '../src/features/auth/api/login';
import type { notificationsQuery } from '../src/features/notifications/api/notifications';
import type { useJoinCampaign } from '../src/features/campaigns/api/join-campaign';
import type { CommissionDetail } from '../src/features/money/api/wallet';
import type { createPayoutAccount } from '../src/features/withdrawals/api/payout-accounts';
import type { WithdrawalDetail } from '../src/features/withdrawals/api/withdrawals';
import { PER_DAY, SETTING_MONEY_MAX } from '../src/features/settings/lib/withdrawal-settings';

const src = path.resolve(import.meta.dirname, '../src');

/**
 * Types an api/ file may declare for itself, each with why: client state and call plumbing, never
 * a shape the server answers with (those come from @pa/shared).
 */
const UI_TYPES: Record<string, string> = {
  PromoterFilters: 'the promoters list filter state as the page and the URL hold it (nulls for "any"), made into a query string',
  ConversionFilters: 'the conversions list filter state as the page and the URL hold it, made into a query string',
  BindingFilters: 'the customer bindings list filter state as the page and the URL hold it, made into a query string',
  PromoterTabs: 'maps each tab of the promoter page (its path segment) to the shared list type its call answers',
  AdjustmentRequest: 'the shared AdjustmentCreate body with the path\'s promoter id and the attempt\'s Idempotency-Key',
  AnnouncementFilter: 'a list filter: one shared status, or all',
  CampaignFilter: 'a list filter: one shared status, or all',
  WithdrawalFilter: 'a list filter: one shared status, or all',
};

interface Problem {
  file: string;
  line: number;
  what: string;
}

const parse = (file: string, text: string) => ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
const lineOf = (sf: ts.SourceFile, node: ts.Node) => sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1;

/**
 * An object literal type (`{ a: string }`) or a string-literal union (`'a' | 'b'`) anywhere inside.
 * String literals that pick keys (`X['status']`, `Pick<X, 'from' | 'to'>`) name a shared shape's parts instead.
 */
function declaresShape(node: ts.Node, keys = false): boolean {
  if (ts.isTypeLiteralNode(node) || ts.isMappedTypeNode(node)) return true;
  if (ts.isLiteralTypeNode(node) && ts.isStringLiteral(node.literal)) return !keys;
  if (ts.isIndexedAccessTypeNode(node)) return declaresShape(node.objectType, keys) || declaresShape(node.indexType, true);
  if (ts.isTypeReferenceNode(node)) return (node.typeArguments ?? []).some((a) => declaresShape(a, true));
  return ts.forEachChild(node, (child) => (declaresShape(child, keys) ? true : undefined)) ?? false;
}

/** Interfaces and type aliases of an api/ file that spell out a shape instead of naming a shared type. */
function ownShapes(file: string, text: string, allowed: Record<string, string> = UI_TYPES): Problem[] {
  const sf = parse(file, text);
  const problems: Problem[] = [];
  for (const statement of sf.statements) {
    if (ts.isInterfaceDeclaration(statement) && !(statement.name.text in allowed)) {
      problems.push({ file, line: lineOf(sf, statement), what: `interface ${statement.name.text}` });
    }
    if (ts.isTypeAliasDeclaration(statement) && !(statement.name.text in allowed) && declaresShape(statement.type)) {
      problems.push({ file, line: lineOf(sf, statement), what: `type ${statement.name.text} = ${statement.type.getText(sf)}` });
    }
  }
  return problems;
}

/** Names a file imports from @pa/shared (any entry point). */
function sharedImports(sf: ts.SourceFile): Set<string> {
  const names = new Set<string>();
  for (const statement of sf.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier) || !statement.moduleSpecifier.text.startsWith('@pa/shared')) continue;
    const bindings = statement.importClause?.namedBindings;
    if (bindings && ts.isNamedImports(bindings)) for (const e of bindings.elements) names.add(e.name.text);
  }
  return names;
}

/**
 * Every `api<T>(…)` call: T must not spell out a shape, and every type it names must come from
 * @pa/shared (or be a type parameter of the code around it, or an allowed UI type).
 */
function apiCallProblems(file: string, text: string, allowed: Record<string, string> = UI_TYPES): { calls: number; problems: Problem[] } {
  const sf = parse(file, text);
  const shared = sharedImports(sf);
  const problems: Problem[] = [];
  let calls = 0;
  const typeParams = new Set<string>();
  const visit = (node: ts.Node) => {
    if ((ts.isFunctionLike(node) || ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.typeParameters) {
      for (const p of node.typeParameters) typeParams.add(p.name.text);
    }
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'api') {
      calls += 1;
      const arg = node.typeArguments?.[0];
      if (!arg) {
        problems.push({ file, line: lineOf(sf, node), what: 'api(…) without the answer\'s type' });
      } else if (declaresShape(arg)) {
        problems.push({ file, line: lineOf(sf, node), what: `api<${arg.getText(sf)}> spells out the answer` });
      } else {
        const names: string[] = [];
        const collect = (n: ts.Node) => {
          if (ts.isTypeReferenceNode(n)) names.push(n.typeName.getText(sf).split('.')[0]!);
          ts.forEachChild(n, collect);
        };
        collect(arg);
        for (const name of names) {
          if (!shared.has(name) && !typeParams.has(name) && !(name in allowed)) problems.push({ file, line: lineOf(sf, node), what: `api<${arg.getText(sf)}>: ${name} is not from @pa/shared` });
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return { calls, problems };
}

const walk = (dir: string): string[] =>
  fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : /\.tsx?$/.test(e.name) ? [path.join(dir, e.name)] : []));
const apiFiles = fs.readdirSync(path.join(src, 'features')).flatMap((feature) => {
  const dir = path.join(src, 'features', feature, 'api');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.ts')).map((f) => path.join(dir, f)) : [];
});
const read = (file: string) => fs.readFileSync(file, 'utf8');
const rel = (file: string) => path.relative(src, file);

describe('the web declares none of the server\'s shapes', () => {
  it('finds the api files it is meant to scan', () => {
    expect(apiFiles.length).toBeGreaterThan(30);
    expect(apiFiles.map(rel)).toContain(path.join('features', 'withdrawals', 'api', 'withdrawals.ts'));
  });

  it('api/ files declare no response or request shapes (only the allowed UI types)', () => {
    const problems = apiFiles.flatMap((f) => ownShapes(rel(f), read(f)));
    expect(problems).toEqual([]);
  });

  it('every allowed UI type still exists (the list does not outlive the code)', () => {
    const declared = new Set(apiFiles.flatMap((f) => {
      const sf = parse(f, read(f));
      return sf.statements.filter((s) => ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s)).map((s) => (s as ts.InterfaceDeclaration | ts.TypeAliasDeclaration).name.text);
    }));
    expect(Object.keys(UI_TYPES).filter((name) => !declared.has(name))).toEqual([]);
  });

  it('every api<T>(…) call in the app names its answer with a type from @pa/shared', () => {
    let calls = 0;
    const problems: Problem[] = [];
    for (const file of walk(src).filter((f) => !f.endsWith(path.join('lib', 'api-client.ts')))) {
      const r = apiCallProblems(rel(file), read(file));
      calls += r.calls;
      problems.push(...r.problems);
    }
    // The scan really saw the calls (a broken scan must not pass by finding nothing).
    expect(calls).toBeGreaterThan(60);
    expect(problems).toEqual([]);
  });

  it('the checks catch what they are for', () => {
    const file = 'features/x/api/x.ts';
    const sample = [
      "import type { Link } from '@pa/shared';",
      'export interface LinkPage { items: Link[]; nextCursor: string | null }',
      "export type Status = 'pending' | 'approved';",
      'type Detail = Link & { events: string[] };',
      'export type Fine = Link;',
      "export type Also = Link['status'];",
      'const a = () => api<{ link: Link }>("GET", "links/1");',
      'const b = () => api<LocalThing>("GET", "x");',
      'const c = () => api("POST", "y");',
      'const d = () => api<Link>("GET", "z");',
      'function e<Row>() { return api<Row[]>("GET", "w"); }',
    ].join('\n');
    expect(ownShapes(file, sample).map((p) => p.what.split(' ').slice(0, 2).join(' '))).toEqual(['interface LinkPage', 'type Status', 'type Detail']);
    const calls = apiCallProblems(file, sample);
    expect(calls.calls).toBe(5);
    expect(calls.problems.map((p) => p.line)).toEqual([7, 8, 9]);
  });
});

describe('withdrawal transitions and limits come from @pa/shared', () => {
  it('the admin page offers exactly the staff steps the shared table allows from each status', () => {
    const expected: Record<WithdrawalStatus, string[]> = { requested: ['approve', 'reject'], approved: ['pay', 'fail'], paid: [], failed: [], rejected: [], cancelled: [] };
    for (const [status, actions] of Object.entries(expected)) expect(offeredActions(status as WithdrawalStatus), status).toEqual(actions);
    expect(STAFF_WITHDRAWAL_ACTIONS).toEqual(['approve', 'pay', 'fail', 'reject']);
    expect(WITHDRAWAL_TRANSITIONS.cancel).toEqual({ from: 'requested', to: 'cancelled', by: 'promoter' });
  });

  it('the settings form checks the server\'s limits', () => {
    expect(SETTING_MONEY_MAX).toBe(WITHDRAWAL_SETTING_MONEY_MAX);
    expect(PER_DAY).toBe(WITHDRAWALS_PER_DAY);
    expect(API_SCOPES).toEqual(['conversions:write', 'conversions:read']);
    expect([WITHDRAWAL_REFERENCE_MAX, WITHDRAWAL_REASON_MAX]).toEqual([100, 500]);
  });

  it('type level: the web\'s types are the schemas\' (compiled by `tsc -p apps/web`)', () => {
    expectTypeOf<Awaited<ReturnType<typeof login>>>().toEqualTypeOf<z.infer<typeof UserEnvelopeSchema>>();
    expectTypeOf<WithdrawalDetail>().toEqualTypeOf<z.infer<typeof WithdrawalDetailSchema>>();
    expectTypeOf<Awaited<ReturnType<NonNullable<ReturnType<typeof adminWithdrawalQuery>['queryFn']>>>>().toEqualTypeOf<z.infer<typeof AdminWithdrawalDetailSchema>>();
    expectTypeOf<CommissionDetail>().toEqualTypeOf<z.infer<typeof CommissionDetailSchema>>();
    expectTypeOf<Awaited<ReturnType<NonNullable<ReturnType<typeof notificationsQuery>['queryFn']>>>>().toEqualTypeOf<z.infer<typeof NotificationListSchema>>();
    expectTypeOf<Awaited<ReturnType<typeof createPayoutAccount>>>().toEqualTypeOf<z.infer<typeof PayoutAccountEnvelopeSchema>['payoutAccount']>();
    expectTypeOf<ReturnType<typeof useJoinCampaign>['data']>().toEqualTypeOf<z.infer<typeof EnrollmentEnvelopeSchema> | undefined>();
    expectTypeOf<ReturnType<typeof useCommissionBulk>['data']>().toEqualTypeOf<z.infer<typeof CommissionBulkResultSchema> | undefined>();
    expectTypeOf<Parameters<ReturnType<typeof useEnrollmentAction>['mutate']>[0]['action']>().toEqualTypeOf<z.infer<typeof EnrollmentActionParamsSchema>['action']>();
    expectTypeOf<UserAction>().toEqualTypeOf<z.infer<typeof UserActionParamsSchema>['action']>();
    expectTypeOf<ImageKind>().toEqualTypeOf<z.infer<typeof ImageUploadQuerySchema>['kind']>();
    // The operators' route accepts exactly the staff steps of the table, and the page offers only those.
    expectTypeOf<z.infer<typeof WithdrawalActionParamsSchema>['action']>().toEqualTypeOf<StaffWithdrawalAction>();
    expectTypeOf<AdminWithdrawalAction>().toEqualTypeOf<StaffWithdrawalAction>();
    expectTypeOf<Parameters<typeof offeredActions>[0]>().toEqualTypeOf<z.infer<typeof WithdrawalStatusSchema>>();
  });
});
