import {
  ErrorResponse,
  isClientScopedRole,
  FieldDefinitionsResponse,
  type FieldDefinition,
} from '@accord/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { canSeeClient, studyScope } from '../../lib/client-scope.ts';
import type { Clock } from '../../lib/clock.ts';
import { currentUser, requireUser } from '../../plugins/auth.ts';
import type { FieldGroup, FieldsRepository } from './fields.repository.ts';
import { mergeOptions } from './fields.presenter.ts';

const GROUPS: FieldGroup[] = ['metadata', 'fragrance', 'concept', 'demographics'];

export const fieldsRoutes: FastifyPluginAsyncZod<{ fields: FieldsRepository; clock: Clock }> = async (
  app,
  { fields, clock },
) => {
  const cache = new Map<string, FieldDefinitionsResponse>();
  app.get(
    '/smartsearch/fields',
    {
      preHandler: requireUser,
      schema: {
        tags: ['search'],
        summary: 'Field definitions with options and their counts over the studies you may see',
        response: { 200: FieldDefinitionsResponse, 401: ErrorResponse },
      },
    },
    async (request) => {
      const user = currentUser(request);
      // Counts are the same for everyone with the same view of the library until a study changes.
      const cacheKey = `${isClientScopedRole(user.roleId) ? [...user.clients].sort().join('\u0000') : '*'}|${await fields.dataVersion()}`;
      const cached = cache.get(cacheKey);
      if (cached) return cached;
      const scope = studyScope(user);
      const definitions = await fields.definitions();
      const [years, ...countsByGroup] = await Promise.all([
        fields.years(scope),
        ...GROUPS.map((group) =>
          fields.counts(
            group,
            definitions
              .filter((def) => def.fieldGroup === group && def.type !== 'string' && def.type !== 'int')
              .map((def) => def.field),
            scope,
          ),
        ),
      ]);
      const response: Record<FieldGroup, FieldDefinition[]> = {
        metadata: [],
        fragrance: [],
        concept: [],
        demographics: [],
      };
      GROUPS.forEach((group, index) => {
        const counts = countsByGroup[index]!;
        response[group] = definitions
          .filter((def) => def.fieldGroup === group)
          .map((def) => ({
            field: def.field,
            label: def.label,
            type: def.type,
            multivalue: def.multivalue,
            editable: def.editable,
            tag_group: def.tagGroup,
            options: mergeOptions(def, counts.get(def.field)).filter(
              // Client and sales users never learn the names of other clients.
              (option) => def.field !== 'client' || canSeeClient(user, option.value),
            ),
          }));
      });
      const currentYear = clock.now().getFullYear();
      const answer = { ...response, years: { min: years.min ?? currentYear, max: years.max ?? currentYear } };
      if (cache.size >= 100) cache.clear();
      cache.set(cacheKey, answer);
      return answer;
    },
  );
};
