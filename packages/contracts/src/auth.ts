import { z } from 'zod';
import { NewPassword } from './users.ts';

export const LoginRequest = z
  .object({
    email: z.string().trim().min(1, 'Email is required').max(254),
    password: z.string().min(1, 'Password is required').max(1024),
    /** Keep the session across browser restarts (httpOnly refresh cookie). */
    remember: z.boolean().default(true),
  })
  .meta({ id: 'LoginRequest' });
export type LoginRequest = z.infer<typeof LoginRequest>;

/** The signed-in user; the access token comes in the Authorization response header. */
export const SignedInUser = z
  .object({
    id: z.number().int(),
    email: z.string(),
    screenname: z.string(),
    role_id: z.number().int(),
    password_reset_flag: z.boolean(),
    clients: z.array(z.string()),
  })
  .meta({ id: 'SignedInUser' });
export type SignedInUser = z.infer<typeof SignedInUser>;

export const RequestChangePasswordRequest = z
  .object({
    email: z.string().trim().email('Please enter a valid e-mail address').max(254),
    /** Address of the web client; the mailed link points at its /login/reset/{token} route. */
    client_address: z.string().url().max(2048).optional(),
  })
  .meta({ id: 'RequestChangePasswordRequest' });

export const ResetPasswordRequest = z
  .object({
    token: z.string().min(10).max(200),
    new_password: NewPassword,
  })
  .meta({ id: 'ResetPasswordRequest' });

export const MessageResponse = z.object({ message: z.string() }).meta({ id: 'MessageResponse' });

export const VersionResponse = z
  .object({ name: z.string(), version: z.string() })
  .meta({ id: 'VersionResponse' });
