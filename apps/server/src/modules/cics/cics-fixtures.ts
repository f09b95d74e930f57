/**
 * Questions, respondents and answers for the CICS API tests, on top of the search fixture library
 * (studies s1 Northwind, s3 Halden & Crane, s4 Brightwell; the demo client user sees Northwind and
 * Halden & Crane, the sales user Northwind and Brightwell).
 *
 *   key     study  text                                                            scale
 *   clean   s1     How much do you agree that this fragrance smells clean?          1-5
 *   phrase  s1     A clean fragrance for every day: how much do you agree?          1-5
 *   liking  s3     Overall, how much do you like or dislike this fragrance?         1-9
 *   other   s4     How much do you agree that this fragrance smells clean?          1-5
 *   when    s1     When would you most like to use a product with this fragrance?   categorical
 *
 * Answers to `clean` (respondent: gender, age, country -> value; r1 rates two products):
 *   r1 Female 25 India 5 and 4, r2 Female 35 India 4, r3 Male 45 India 2, r4 Male 55 Brazil 1,
 *   r5 Female 65 Brazil 3.
 * Answers to `liking`: 9, 6 and 1 on the 9-point scale (h = 5, 3.5 and 1).
 */
import type { Database } from '../../db/client.ts';
import { answers, products, questions, respondents } from '../../db/schema.ts';
import type { FixtureIds } from '../search/search-fixtures.ts';

export type QuestionKey = 'clean' | 'phrase' | 'liking' | 'other' | 'when';
export type CicsFixtureIds = Record<QuestionKey, number>;

const agree = ['Disagree strongly', 'Disagree slightly', 'Neither', 'Agree slightly', 'Agree strongly'];
const fivePoint = agree.map((name, index) => ({ name, value: index + 1 }));
const ninePoint = Array.from({ length: 9 }, (_, index) => ({ name: String(index + 1), value: index + 1 }));
const moments = ['Morning', 'Daytime', 'Evening', 'Night'].map((name, index) => ({ name, value: index + 1 }));

export async function seedCicsFixtures(database: Database, studyIds: FixtureIds): Promise<CicsFixtureIds> {
  const { db } = database;
  const question = async (
    studyKey: keyof FixtureIds,
    qid: string,
    text: string,
    type: 'numerical' | 'categorical',
    scale: [number, number],
    labels: { name: string; value: number }[],
  ) => {
    const [row] = await db
      .insert(questions)
      .values({
        studyId: studyIds[studyKey],
        filename: 'results.csv',
        path: 'results/results.csv',
        qid,
        text,
        questionType: type,
        scaleMin: scale[0],
        scaleMax: scale[1],
        labels,
        sortOrder: Number(qid.slice(1)),
      })
      .returning({ id: questions.id });
    return row!.id;
  };
  const ids: CicsFixtureIds = {
    clean: await question(
      's1',
      'Q1',
      'How much do you agree that this fragrance smells clean?',
      'numerical',
      [1, 5],
      fivePoint,
    ),
    phrase: await question(
      's1',
      'Q2',
      'A clean fragrance for every day: how much do you agree?',
      'numerical',
      [1, 5],
      fivePoint,
    ),
    when: await question(
      's1',
      'Q3',
      'When would you most like to use a product with this fragrance?',
      'categorical',
      [1, 4],
      moments,
    ),
    liking: await question(
      's3',
      'Q1',
      'Overall, how much do you like or dislike this fragrance?',
      'numerical',
      [1, 9],
      ninePoint,
    ),
    other: await question(
      's4',
      'Q1',
      'How much do you agree that this fragrance smells clean?',
      'numerical',
      [1, 5],
      fivePoint,
    ),
  };

  const product = async (studyKey: keyof FixtureIds, code: string) => {
    const [row] = await db
      .insert(products)
      .values({ studyId: studyIds[studyKey], kind: 'fragrance', code })
      .returning({ id: products.id });
    return row!.id;
  };
  const people = async (
    studyKey: keyof FixtureIds,
    list: { code: string; gender: string; age: number; country: string }[],
  ) => {
    const rows = await db
      .insert(respondents)
      .values(list.map((person) => ({ studyId: studyIds[studyKey], respondentCode: person.code, ...person })))
      .returning({ id: respondents.id });
    return rows.map((row) => row.id);
  };

  const p1 = await product('s1', 'P1');
  const p2 = await product('s1', 'P2');
  const [r1, r2, r3, r4, r5] = (await people('s1', [
    { code: 'r1', gender: 'Female', age: 25, country: 'India' },
    { code: 'r2', gender: 'Female', age: 35, country: 'India' },
    { code: 'r3', gender: 'Male', age: 45, country: 'India' },
    { code: 'r4', gender: 'Male', age: 55, country: 'Brazil' },
    { code: 'r5', gender: 'Female', age: 65, country: 'Brazil' },
  ])) as [number, number, number, number, number];
  const answer =
    (studyKey: keyof FixtureIds, questionId: number, productId: number) =>
    (respondentId: number, value: number) => ({
      studyId: studyIds[studyKey],
      questionId,
      productId,
      respondentId,
      rawValue: value,
      value,
    });
  const clean1 = answer('s1', ids.clean, p1);
  const clean2 = answer('s1', ids.clean, p2);
  const when1 = answer('s1', ids.when, p1);
  await db
    .insert(answers)
    .values([
      clean1(r1, 5),
      clean2(r1, 4),
      clean1(r2, 4),
      clean1(r3, 2),
      clean1(r4, 1),
      clean1(r5, 3),
      when1(r1, 1),
      when1(r2, 1),
      when1(r3, 3),
    ]);

  const p3 = await product('s3', 'P1');
  const [h1, h2, h3] = (await people('s3', [
    { code: 'h1', gender: 'Female', age: 30, country: 'Indonesia' },
    { code: 'h2', gender: 'Male', age: 40, country: 'Indonesia' },
    { code: 'h3', gender: 'Female', age: 50, country: 'Indonesia' },
  ])) as [number, number, number];
  const liking = answer('s3', ids.liking, p3);
  await db.insert(answers).values([liking(h1, 9), liking(h2, 6), liking(h3, 1)]);
  return ids;
}
