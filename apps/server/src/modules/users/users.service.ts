/**
 * User administration. Admins manage everyone; any other user may read and edit only their own
 * record, and only their names, e-mail and password.
 */
import { ROLE_SALES, pageInfo, type CreateUserRequest, type PageInfo, type User } from '@accord/contracts';
import type { z } from 'zod';
import type { UpdateUserRequest } from '@accord/contracts';
import { errors } from '../../lib/errors.ts';
import type { Clock } from '../../lib/clock.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { hashPassword } from '../auth/password.ts';
import type { SessionRepository } from '../auth/session.repository.ts';
import { presentRole, presentUser } from './users.presenter.ts';
import type { NewUser, UserRow, UsersRepository } from './users.repository.ts';

type CreateInput = z.output<typeof CreateUserRequest>;
type UpdateInput = z.output<typeof UpdateUserRequest>;

const SALES_NEEDS_CLIENT = 'A sales user needs at least one client.';
const EMAIL_TAKEN = 'A user with this e-mail address already exists.';
const NOT_OWN_ACCOUNT = 'You cannot remove or disable your own account.';
const CURRENT_PASSWORD_NEEDED = 'Enter your current password to change your password or e-mail address.';
const CURRENT_PASSWORD_WRONG = 'The current password is not correct.';

/** Checks a user's own password; answers false when it is wrong, throws when the account is limited. */
export type PasswordCheck = (email: string, password: string) => Promise<boolean>;

export function createUsersService(deps: {
  users: UsersRepository;
  sessions: SessionRepository;
  clock: Clock;
  checkPassword: PasswordCheck;
}) {
  const { users, sessions } = deps;

  /** One's own password or e-mail changes only with the current password. */
  async function assertCurrentPassword(current: UserRow, given: string | undefined) {
    if (!given) {
      throw errors.badRequest(CURRENT_PASSWORD_NEEDED, [
        { path: 'current_password', message: CURRENT_PASSWORD_NEEDED },
      ]);
    }
    if (!(await deps.checkPassword(current.email, given))) {
      throw errors.badRequest(CURRENT_PASSWORD_WRONG, [
        { path: 'current_password', message: CURRENT_PASSWORD_WRONG },
      ]);
    }
  }

  async function assertEmailFree(email: string, exceptId?: number) {
    const existing = await users.findByEmail(email);
    if (existing && existing.id !== exceptId) throw errors.conflict(EMAIL_TAKEN);
  }

  async function assertRole(roleId: number) {
    if (!(await users.roleExists(roleId)))
      throw errors.badRequest('Unknown role.', [{ path: 'role_id', message: 'Unknown role.' }]);
  }

  async function load(id: number): Promise<UserRow> {
    const row = await users.findById(id);
    if (!row || row.deleted) throw errors.notFound('User not found.');
    return row;
  }

  function assertSelfOrAdmin(actor: AuthUser, id: number) {
    if (!actor.permissions.isAdmin && actor.id !== id) throw errors.forbidden();
  }

  return {
    async list(query: {
      page: number;
      per_page: number;
      search_query?: string;
    }): Promise<{ users: User[]; page: PageInfo }> {
      const { rows, total } = await users.list({
        page: query.page,
        perPage: query.per_page,
        search: query.search_query || undefined,
      });
      return { users: rows.map(presentUser), page: pageInfo(query.page, query.per_page, total) };
    },

    async roles() {
      return (await users.roles()).map(presentRole);
    },

    async get(actor: AuthUser, id: number): Promise<User> {
      assertSelfOrAdmin(actor, id);
      return presentUser(await load(id));
    },

    async create(input: CreateInput): Promise<User> {
      await assertRole(input.role_id);
      if (input.role_id === ROLE_SALES && input.clients.length === 0) {
        throw errors.badRequest(SALES_NEEDS_CLIENT, [{ path: 'clients', message: SALES_NEEDS_CLIENT }]);
      }
      await assertEmailFree(input.email);
      const id = await users.insert({
        email: input.email,
        firstname: input.firstname,
        lastname: input.lastname,
        passwordHash: await hashPassword(input.password),
        roleId: input.role_id,
        status: input.status,
        deleted: input.deleted,
        clients: input.clients,
        lastLoginAt: deps.clock.now(),
      });
      return presentUser(await load(id));
    },

    /**
     * Updates a user; deleting is an update with deleted true. Disabling or deleting ends sessions;
     * a new password ends every other session of the user. Changing one's own password or e-mail
     * needs the current password.
     */
    async update(actor: AuthUser, id: number, input: UpdateInput): Promise<User> {
      assertSelfOrAdmin(actor, id);
      const current = await load(id);
      const emailChanges =
        input.email !== undefined && input.email.toLowerCase() !== current.email.toLowerCase();
      if (actor.id === id && (input.password || emailChanges))
        await assertCurrentPassword(current, input.current_password);
      const changes: Partial<NewUser> = {};
      if (!actor.permissions.isAdmin) {
        const sameClients =
          input.clients === undefined ||
          (input.clients.length === current.clients.length &&
            input.clients.every((c) => current.clients.includes(c)));
        const changesPrivileges =
          (input.role_id !== undefined && input.role_id !== current.roleId) ||
          (input.status !== undefined && input.status !== current.status) ||
          (input.deleted !== undefined && input.deleted !== current.deleted) ||
          !sameClients;
        if (changesPrivileges)
          throw errors.forbidden('You may change only your names, e-mail address and password.');
      } else {
        if (input.role_id !== undefined) {
          await assertRole(input.role_id);
          changes.roleId = input.role_id;
        }
        if (input.status !== undefined) changes.status = input.status;
        if (input.deleted !== undefined) changes.deleted = input.deleted;
        if (input.clients !== undefined) changes.clients = input.clients;
        if (actor.id === id && (changes.deleted === true || changes.status === 'disabled'))
          throw errors.badRequest(NOT_OWN_ACCOUNT);
        const roleId = changes.roleId ?? current.roleId;
        const clients = changes.clients ?? current.clients;
        if (roleId === ROLE_SALES && clients.length === 0 && changes.deleted !== true) {
          throw errors.badRequest(SALES_NEEDS_CLIENT, [{ path: 'clients', message: SALES_NEEDS_CLIENT }]);
        }
      }
      if (input.email !== undefined && emailChanges) {
        await assertEmailFree(input.email, id);
        changes.email = input.email;
      }
      if (input.firstname !== undefined) changes.firstname = input.firstname;
      if (input.lastname !== undefined) changes.lastname = input.lastname;
      if (input.password) {
        changes.passwordHash = await hashPassword(input.password);
        changes.passwordChangedAt = deps.clock.now();
      }
      await users.update(id, changes);
      if (changes.deleted === true || changes.status === 'disabled') await sessions.endAllOfUser(id);
      // Whoever may have learnt the old password loses the sessions it opened; the user changing
      // their own keeps the session they changed it from.
      else if (changes.passwordHash)
        await sessions.endAllOfUser(id, actor.id === id ? actor.sessionId : undefined);
      return presentUser(await users.findById(id).then((row) => row!));
    },
  };
}

export type UsersService = ReturnType<typeof createUsersService>;
