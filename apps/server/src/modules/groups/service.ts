/**
 * Promoter groups (issue 31, item 1; docs/groups.md). Every promoter is in exactly one group; one
 * group is the default (new promoters join it unless their invite link names another) and cannot
 * be deleted; deleting another moves its promoters to the default in the same transaction. Names
 * are unique regardless of case (a folded key with a unique index). Each change is audited in its
 * transaction.
 */
import type { Group, GroupCreate } from '@pa/shared';
import type { AppContext } from '../../context';
import { audit, type Actor } from '../../platform/audit';
import { AppError } from '../../platform/errors';
import { newGroupCode, newId } from '../../platform/ids';
import { isUniqueViolation } from '../users/repository';
import {
  deleteGroupQuestions, deleteGroupRow, findGroup, insertGroup, inviteCodeTaken, listGroups, lockGroup, moveMembersToDefault, nameTaken, setInviteCode,
  updateGroup, type GroupRow,
} from './repository';

/** The key names are compared by: NFKC (full-width letters as ASCII), lower case. */
export const groupNameKey = (name: string) => name.normalize('NFKC').toLowerCase();

const toGroup = (r: GroupRow): Group => ({
  id: r.id,
  name: r.name,
  description: r.description,
  isDefault: r.is_default === 1,
  inviteCode: r.invite_code,
  promoterCount: r.promoter_count,
  questionCount: r.question_count,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const taken = () => new AppError('GROUP_NAME_TAKEN', { name: 'taken' });

export async function groups(ctx: AppContext): Promise<Group[]> {
  return (await listGroups(ctx.db)).map(toGroup);
}

async function group(ctx: AppContext, id: string): Promise<Group> {
  const row = await findGroup(ctx.db, id);
  if (!row) throw new AppError('NOT_FOUND');
  return toGroup(row);
}

/** A fresh invite code no group has (60 random bits: a collision is a retry, not an error). */
async function freshCode(db: AppContext['db']): Promise<string> {
  for (;;) {
    const code = newGroupCode();
    if (!(await inviteCodeTaken(db, code))) return code;
  }
}

export async function createGroup(ctx: AppContext, actor: Actor, body: { name: string; description?: string | undefined }): Promise<Group> {
  const input: Required<GroupCreate> = { name: body.name, description: body.description ?? '' };
  const id = await ctx.uow.run(async ({ q: trx }) => {
    const nameKey = groupNameKey(input.name);
    if (await nameTaken(trx, nameKey)) throw taken();
    const now = Date.now();
    const groupId = newId(now);
    await insertGroup(trx, { id: groupId, name: input.name, nameKey, description: input.description, inviteCode: await freshCode(trx), now });
    await audit(trx, { actorId: actor.userId, action: 'group.create', entity: 'group', entityId: groupId, after: input, ip: actor.ip }, now);
    return groupId;
  }).catch((error: unknown) => {
    // Two creations of the same name at once: the unique index on the folded name refuses the second.
    if (isUniqueViolation(error)) throw taken();
    throw error;
  });
  return group(ctx, id);
}

/** Renames or re-describes a group (the default one too); nothing to change writes nothing. */
export async function changeGroup(ctx: AppContext, actor: Actor, id: string, patch: { name?: string | undefined; description?: string | undefined }): Promise<Group> {
  await ctx.uow.run(async ({ q: trx }) => {
    const before = await lockGroup(trx, ctx.dialect, id);
    if (!before) throw new AppError('NOT_FOUND');
    const after = { name: patch.name ?? before.name, description: patch.description ?? before.description };
    if (after.name === before.name && after.description === before.description) return;
    const nameKey = groupNameKey(after.name);
    if (await nameTaken(trx, nameKey, id)) throw taken();
    const now = Date.now();
    await updateGroup(trx, id, { ...after, nameKey }, now);
    const changed = Object.fromEntries(Object.entries(after).filter(([k, v]) => before[k as keyof typeof after] !== v));
    await audit(trx, { actorId: actor.userId, action: 'group.update', entity: 'group', entityId: id, before: { name: before.name, description: before.description }, after: changed, ip: actor.ip }, now);
  }).catch((error: unknown) => {
    if (isUniqueViolation(error)) throw taken();
    throw error;
  });
  return group(ctx, id);
}

/**
 * Deletes a group: its promoters move to the default group and its questions go, in one
 * transaction (the group's row first, so a registration or a move into it that waits on the row
 * finds it gone). The default group is DEFAULT_GROUP.
 */
export async function removeGroup(ctx: AppContext, actor: Actor, id: string): Promise<{ ok: true; movedPromoters: number }> {
  return ctx.uow.run(async ({ q: trx }) => {
    const before = await lockGroup(trx, ctx.dialect, id);
    if (!before) throw new AppError('NOT_FOUND');
    if (before.is_default === 1) throw new AppError('DEFAULT_GROUP');
    const now = Date.now();
    if (!(await deleteGroupRow(trx, id))) throw new AppError('NOT_FOUND');
    const movedPromoters = await moveMembersToDefault(trx, id, now);
    await deleteGroupQuestions(trx, id);
    await audit(trx, { actorId: actor.userId, action: 'group.delete', entity: 'group', entityId: id, before: { name: before.name, description: before.description }, after: { movedPromoters }, ip: actor.ip }, now);
    return { ok: true as const, movedPromoters };
  });
}

/** A new invite link for a group: the old link stops working (it may have gone further than meant). */
export async function renewGroupLink(ctx: AppContext, actor: Actor, id: string): Promise<Group> {
  await ctx.uow.run(async ({ q: trx }) => {
    const before = await lockGroup(trx, ctx.dialect, id);
    if (!before) throw new AppError('NOT_FOUND');
    // The default group's link is the plain register link, which cannot be withdrawn.
    if (before.is_default === 1) throw new AppError('DEFAULT_GROUP');
    const old = (await findGroup(trx, id))?.invite_code ?? null;
    const now = Date.now();
    const code = await freshCode(trx);
    await setInviteCode(trx, id, code, now);
    await audit(trx, { actorId: actor.userId, action: 'group.invite_code', entity: 'group', entityId: id, before: { inviteCode: old }, after: { inviteCode: code }, ip: actor.ip }, now);
  });
  return group(ctx, id);
}
