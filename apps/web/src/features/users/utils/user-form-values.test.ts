import type { User } from '@accord/contracts';
import { describe, expect, it } from 'vitest';
import {
  adminPayload,
  EMPTY_USER,
  removalPayload,
  roleNeedsClient,
  roleTakesClients,
  selfPayload,
} from './user-form-values.ts';

const sales: User = {
  id: 4,
  email: 'sales@accord.test',
  firstname: 'Sam',
  lastname: 'Sales',
  role: { id: 4, slug: 'sales', name: 'Sales' },
  role_id: 4,
  status: 'enabled',
  deleted: false,
  created_at: '2025-01-01T00:00:00Z',
  last_seen: null,
  clients: ['Northwind Consumer Goods'],
};

describe('user form values', () => {
  it('starts a new user as an enabled client with no clients', () => {
    expect(EMPTY_USER).toMatchObject({ role_id: '3', status: 'enabled', clients: [], deleted: false });
  });

  it('gives the clients selector to clients and sales; only sales must choose one', () => {
    expect(roleTakesClients('3')).toBe(true);
    expect(roleTakesClients('4')).toBe(true);
    expect(roleTakesClients('2')).toBe(false);
    expect(roleNeedsClient('4')).toBe(true);
    expect(roleNeedsClient('3')).toBe(false);
  });

  it('sends clients as JSON text, drops them for roles without clients and omits an empty password', () => {
    const payload = adminPayload({ ...EMPTY_USER, email: ' a@b.test ', role_id: '2', clients: ['X'] });
    expect(payload).toEqual({
      email: 'a@b.test',
      firstname: '',
      lastname: '',
      status: 'enabled',
      role_id: 2,
      deleted: false,
      clients: '[]',
    });
    expect(adminPayload({ ...EMPTY_USER, clients: ['X', 'Y'], password: 'secret-1' })).toMatchObject({
      clients: '["X","Y"]',
      password: 'secret-1',
    });
  });

  it('lets a user change only names and password on their own record', () => {
    expect(
      selfPayload({ ...EMPTY_USER, firstname: ' Rita ', lastname: 'R', role_id: '1', password: '' }),
    ).toEqual({
      firstname: 'Rita',
      lastname: 'R',
    });
  });

  it('removes a user by saving it with deleted true', () => {
    expect(removalPayload(sales)).toMatchObject({
      email: 'sales@accord.test',
      deleted: true,
      role_id: 4,
      clients: '["Northwind Consumer Goods"]',
    });
  });
});
