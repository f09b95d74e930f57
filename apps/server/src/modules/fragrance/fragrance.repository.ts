/**
 * The SQL of a fragrance across its tests: the products carrying a 6-digit (SAP) code in the studies
 * a scope lets through, with their study's details.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { fragrances, products, studies } from '../../db/schema.ts';

/** One product of the code: the fragrance as one study tested it. */
export interface FragranceTestRecord {
  productId: number;
  studyId: number;
  cMiNumber: string;
  projectName: string;
  client: string;
  year: number;
  region: string[];
  market: string | null;
  methodology: string | null;
  category: string | null;
  productType: string | null;
  prod: string;
  name: string;
  family: string | null;
  subfamily: string | null;
  perfumerName: string | null;
  verified: boolean;
  createdAt: Date;
}

interface TestRow {
  product_id: number;
  study_id: number;
  c_mi_number: string;
  project_name: string;
  client: string;
  year: number;
  region: string[] | null;
  lead_country: string | null;
  methodology: string | null;
  category: string | null;
  product_type: string | null;
  prod: string;
  name: string;
  family: string | null;
  subfamily: string | null;
  perfumer_name: string | null;
  verified: boolean;
  created_at: string | Date;
}

export function createFragranceRepository(db: Db) {
  return {
    /**
     * The tests of a code (lower(code) reads the code's prefix index; the products by their study's
     * unique index) within the scope (a condition on the studies table aliased s), latest
     * first: by year, then by the study's creation.
     */
    async tests(code: string, scope: SQL): Promise<FragranceTestRecord[]> {
      const result = (await db.execute(sql`select p.id as product_id, s.id as study_id, s.c_mi_number,
          s.project_name, s.client, s.year, s.region, s.lead_country, s.methodology, s.category,
          s.product_type, p.code as prod, f.name, f.family, f.subfamily, f.perfumer_name, s.verified,
          s.created_at
        from ${fragrances} f
        join ${products} p on p.study_id = f.study_id and p.kind = 'fragrance' and p.fragrance_id = f.id
        join ${studies} s on s.id = f.study_id
        where lower(f.code) = ${code.toLowerCase()} and ${scope}
        order by s.year desc, s.created_at desc, s.id desc, p.id`)) as unknown as { rows: TestRow[] };
      return result.rows.map((row) => ({
        productId: Number(row.product_id),
        studyId: Number(row.study_id),
        cMiNumber: row.c_mi_number,
        projectName: row.project_name,
        client: row.client,
        year: Number(row.year),
        region: row.region ?? [],
        market: row.lead_country,
        methodology: row.methodology,
        category: row.category,
        productType: row.product_type,
        prod: row.prod,
        name: row.name,
        family: row.family,
        subfamily: row.subfamily,
        perfumerName: row.perfumer_name,
        verified: Boolean(row.verified),
        createdAt: new Date(row.created_at),
      }));
    },
  };
}

export type FragranceRepository = ReturnType<typeof createFragranceRepository>;
