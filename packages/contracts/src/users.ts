import { z } from 'zod';
import { PASSWORD_MIN_LENGTH, TEXT_LIMITS } from './constants.ts';
import { numeric } from './common.ts';

/** The one rule of a new password: user creation, user edits and the reset all use it. */
export const NewPassword = z
  .string()
  .min(PASSWORD_MIN_LENGTH, `Password must have at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(TEXT_LIMITS.password);

export const Role = z
  .object({ id: z.number().int(), slug: z.string(), name: z.string() })
  .meta({ id: 'Role' });
export type Role = z.infer<typeof Role>;

export const UserStatus = z.enum(['enabled', 'disabled']);

export const User = z
  .object({
    id: z.number().int(),
    email: z.string(),
    firstname: z.string(),
    lastname: z.string(),
    role: Role,
    role_id: z.number().int(),
    status: UserStatus,
    deleted: z.boolean(),
    created_at: z.string().meta({ description: 'Registration date (ISO 8601).' }),
    last_seen: z.string().nullable().meta({ description: 'Last activity (ISO 8601) or null.' }),
    clients: z.array(z.string()),
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof User>;

export const UserListQuery = z.object({
  page: numeric(z.number().int().min(1)).default(1),
  per_page: numeric(z.number().int().min(1).max(100)).default(10),
  search_query: z.string().trim().max(TEXT_LIMITS.userSearch).optional(),
});

/** clients arrives as JSON text (document 1 section 7); an array is accepted too. */
const ClientsField = z
  .union([z.string(), z.array(z.string())])
  .transform((value, ctx) => {
    if (Array.isArray(value)) return value;
    if (value.trim() === '') return [];
    try {
      const parsed: unknown = JSON.parse(value);
      if (Array.isArray(parsed) && parsed.every((item) => typeof item === 'string'))
        return parsed as string[];
    } catch {
      // fall through to the issue below
    }
    ctx.addIssue({ code: 'custom', message: 'clients must be a JSON list of client names' });
    return z.NEVER;
  })
  .pipe(z.array(z.string().trim().min(1).max(200)).max(200));

const userFields = {
  email: z.string().trim().email('Please enter a valid e-mail address').max(TEXT_LIMITS.email),
  firstname: z.string().trim().max(TEXT_LIMITS.personName),
  lastname: z.string().trim().max(TEXT_LIMITS.personName),
  status: UserStatus,
  role_id: numeric(z.number().int().min(1).max(4)),
  deleted: z.boolean(),
  clients: ClientsField,
};

/** A new user; role and e-mail are required, the rest defaults as the user form does. */
export const CreateUserRequest = z
  .object({
    ...userFields,
    firstname: userFields.firstname.default(''),
    lastname: userFields.lastname.default(''),
    status: userFields.status.default('enabled'),
    deleted: userFields.deleted.default(false),
    clients: ClientsField.default([]),
    password: NewPassword,
  })
  .meta({ id: 'CreateUserRequest' });
export type CreateUserRequest = z.input<typeof CreateUserRequest>;

/** Only the fields sent are changed. */
export const UpdateUserRequest = z
  .object({
    ...userFields,
    /** Empty or absent keeps the current password. */
    password: z.union([z.literal(''), NewPassword]),
    /**
     * The signed-in user's password, required when they change their own password or e-mail address
     * (so a session left open does not let anyone take the account over).
     */
    current_password: z.string().max(1024),
  })
  .partial()
  .meta({ id: 'UpdateUserRequest' });
export type UpdateUserRequest = z.input<typeof UpdateUserRequest>;

export const UserList = z.array(User);
