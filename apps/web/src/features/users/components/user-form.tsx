import { TEXT_LIMITS } from '@accord/contracts';
import { textLimit } from '../../../components/text-limit.ts';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  MultiSelect,
  Paper,
  PasswordInput,
  Select,
  SimpleGrid,
  Stack,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import type { Role, User } from '@accord/contracts';
import { IconAlertCircle } from '@tabler/icons-react';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { isApiError } from '../../../lib/api-error.ts';
import { metadataOptions, useFieldsQuery } from '../../../lib/api/get-fields.ts';
import {
  EMPTY_USER,
  USER_DEFAULTS,
  roleNeedsClient,
  roleTakesClients,
  valuesFromUser,
  type UserFormValues,
} from '../utils/user-form-values.ts';

export type UserFormMode = 'add' | 'edit' | 'view';

export const SALES_NEEDS_CLIENT = 'Choose at least one client for the sales role.';

const STATUS_OPTIONS = [
  { value: 'enabled', label: 'Enabled' },
  { value: 'disabled', label: 'Disabled' },
];

export interface UserFormProps {
  mode: UserFormMode;
  user?: User;
  roles: Role[];
  /** Admins see and change every field; a user on their own record only names and password. */
  fullAccess: boolean;
  /** Submit is enabled only for admins or on one's own record. */
  canSubmit: boolean;
  /** The signed-in user's own record: a new password or e-mail needs the current password. */
  ownRecord?: boolean;
  submitting?: boolean;
  onSubmit?: (values: UserFormValues) => Promise<unknown>;
  /** Where Cancel and Back go. */
  backHref: string;
  /** The view's Edit button target, and whether this user may use it. */
  editHref?: string;
  canEdit?: boolean;
}

/** The user form in its three modes (document 1 section 2): add-user, edit-user and the read-only view. */
export function UserForm({
  mode,
  user,
  roles,
  fullAccess,
  canSubmit,
  ownRecord = false,
  submitting = false,
  onSubmit,
  backHref,
  editHref,
  canEdit = false,
}: UserFormProps) {
  const readOnly = mode === 'view';
  const loaded = useMemo(() => (user ? valuesFromUser(user) : EMPTY_USER), [user]);
  const [serverError, setServerError] = useState<string | null>(null);
  const fields = useFieldsQuery();

  const form = useForm<UserFormValues>({
    initialValues: loaded,
    validate: {
      clients: (clients, values) =>
        fullAccess && roleNeedsClient(values.role_id) && clients.length === 0 ? SALES_NEEDS_CLIENT : null,
    },
  });

  const clientOptions = useMemo(() => {
    const options = metadataOptions(fields.data, 'client').map((option) => ({
      value: option.value,
      label: option.label,
    }));
    const known = new Set(options.map((option) => option.value));
    for (const client of form.values.clients)
      if (!known.has(client)) options.push({ value: client, label: client });
    return options;
  }, [fields.data, form.values.clients]);

  const roleOptions = useMemo(() => {
    const list = roles.length > 0 ? roles : user ? [user.role] : [];
    return list.map((role) => ({ value: String(role.id), label: role.name }));
  }, [roles, user]);

  const reset = () => {
    setServerError(null);
    form.clearErrors();
    if (!fullAccess) {
      form.setValues({
        firstname: loaded.firstname,
        lastname: loaded.lastname,
        password: '',
        current_password: '',
      });
    } else if (mode === 'add') {
      form.setValues({ ...EMPTY_USER });
    } else {
      form.setValues({ ...USER_DEFAULTS, clients: [], password: '', current_password: '' });
    }
  };

  const submit = form.onSubmit(async (values) => {
    if (!onSubmit) return;
    setServerError(null);
    try {
      await onSubmit(values);
    } catch (error) {
      if (isApiError(error) && error.status === 400) {
        setServerError(error.message);
        for (const detail of error.details ?? []) {
          if (detail.path in values) form.setFieldError(detail.path, detail.message);
        }
      } else if (isApiError(error) && error.status === 409) {
        // The e-mail address belongs to another user: say so on the form and on the field.
        setServerError(error.message);
        form.setFieldError('email', error.message);
      } else {
        // Other failures of save are only logged (document 1 section 8).
        console.error('Saving the user failed', error);
      }
    }
  });

  const showClients = fullAccess && roleTakesClients(form.values.role_id);
  const formLabel = mode === 'add' ? 'Add user' : mode === 'edit' ? 'Edit user' : 'User details';

  return (
    <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
      <form onSubmit={submit} noValidate aria-label={formLabel}>
        <Stack gap="md">
          {serverError ? (
            <Alert
              color="red"
              icon={<IconAlertCircle aria-hidden="true" />}
              role="alert"
              title="The user was not saved"
            >
              {serverError}
            </Alert>
          ) : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
            {fullAccess || readOnly ? (
              <TextInput
                label="Email"
                type="email"
                autoComplete="off"
                readOnly={readOnly || !fullAccess}
                required={!readOnly}
                {...form.getInputProps('email')}
                maxLength={TEXT_LIMITS.email}
                style={{ gridColumn: '1 / -1' }}
              />
            ) : null}
            <TextInput
              label="First name"
              autoComplete="off"
              readOnly={readOnly}
              {...form.getInputProps('firstname')}
              {...textLimit(String(form.values.firstname ?? ''), TEXT_LIMITS.personName)}
            />
            <TextInput
              label="Last name"
              autoComplete="off"
              readOnly={readOnly}
              {...form.getInputProps('lastname')}
              {...textLimit(String(form.values.lastname ?? ''), TEXT_LIMITS.personName)}
            />
            {readOnly ? null : (
              <PasswordInput
                label="Password"
                autoComplete="new-password"
                required={mode === 'add'}
                description={
                  mode === 'add' ? 'At least 8 characters.' : 'Leave empty to keep the current password.'
                }
                {...form.getInputProps('password')}
                maxLength={TEXT_LIMITS.password}
                style={{ gridColumn: '1 / -1' }}
              />
            )}
            {!readOnly && ownRecord ? (
              <PasswordInput
                label="Current password"
                autoComplete="current-password"
                description="Needed to change your password or e-mail address."
                {...form.getInputProps('current_password')}
                style={{ gridColumn: '1 / -1' }}
              />
            ) : null}
            {fullAccess || readOnly ? (
              <>
                <Select
                  label="Role"
                  data={roleOptions}
                  allowDeselect={false}
                  readOnly={readOnly}
                  {...form.getInputProps('role_id')}
                  onChange={(value) => value && form.setFieldValue('role_id', value)}
                />
                <Select
                  label="Status"
                  data={STATUS_OPTIONS}
                  allowDeselect={false}
                  readOnly={readOnly}
                  {...form.getInputProps('status')}
                  onChange={(value) =>
                    value && form.setFieldValue('status', value as UserFormValues['status'])
                  }
                />
              </>
            ) : null}
            {showClients || (readOnly && form.values.clients.length > 0) ? (
              <MultiSelect
                label="Clients"
                description={
                  readOnly
                    ? undefined
                    : roleNeedsClient(form.values.role_id)
                      ? 'Sales users need at least one client.'
                      : 'The studies this user sees are limited to these clients.'
                }
                placeholder={readOnly ? undefined : 'Choose clients'}
                data={clientOptions}
                searchable
                clearable={!readOnly}
                readOnly={readOnly}
                nothingFoundMessage="No client matches"
                hidePickedOptions
                {...form.getInputProps('clients')}
                style={{ gridColumn: '1 / -1' }}
              />
            ) : null}
            {fullAccess && mode !== 'add' ? (
              <Checkbox
                label="Deleted"
                description="A deleted user can no longer sign in and is hidden from the list."
                disabled={readOnly}
                {...form.getInputProps('deleted', { type: 'checkbox' })}
                style={{ gridColumn: '1 / -1' }}
              />
            ) : null}
          </SimpleGrid>
          <Group justify="flex-end" gap="sm" mt="sm">
            {readOnly ? (
              <>
                <Button component={Link} to={backHref} variant="default">
                  Back
                </Button>
                {canEdit && editHref ? (
                  <Button component={Link} to={editHref}>
                    Edit
                  </Button>
                ) : (
                  <Button disabled>Edit</Button>
                )}
              </>
            ) : (
              <>
                <Button component={Link} to={backHref} variant="subtle">
                  Cancel
                </Button>
                <Button variant="default" onClick={reset}>
                  Reset
                </Button>
                <Button type="submit" disabled={!canSubmit} loading={submitting}>
                  Submit
                </Button>
              </>
            )}
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
