import { z } from 'zod';

export const FieldOption = z.object({
  value: z.string(),
  label: z.string(),
  /** Studies (or fragrances, concepts) that carry the value. */
  count: z.number().int(),
  parent: z.string().nullable().optional(),
});
export type FieldOption = z.infer<typeof FieldOption>;

export const FieldDefinition = z
  .object({
    field: z.string(),
    label: z.string(),
    type: z.string(),
    multivalue: z.boolean(),
    editable: z.boolean(),
    tag_group: z.string().nullable(),
    options: z.array(FieldOption),
  })
  .meta({ id: 'FieldDefinition' });
export type FieldDefinition = z.infer<typeof FieldDefinition>;

/** Field definitions grouped by entity: metadata, fragrance, concept, demographics. */
export const FieldDefinitionsResponse = z
  .object({
    metadata: z.array(FieldDefinition),
    fragrance: z.array(FieldDefinition),
    concept: z.array(FieldDefinition),
    demographics: z.array(FieldDefinition),
    /** Smallest and largest study year in the library. */
    years: z.object({ min: z.number().int(), max: z.number().int() }),
  })
  .meta({ id: 'FieldDefinitions' });
export type FieldDefinitionsResponse = z.infer<typeof FieldDefinitionsResponse>;
