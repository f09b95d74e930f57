// Variance inflation factors of regression drivers (METRICS.md section 3): how much each coefficient's
// variance grows because the driver is explained by the other drivers.
import { ols } from './regression.ts';

/** A driver whose VIF exceeds this is reported with a collinearity warning. */
export const VIF_WARNING_THRESHOLD = 10;

/**
 * VIF of each predictor column of `columns` (one array per predictor, aligned by observation), in input
 * order: 1 / (1 − R²) of the predictor regressed on the others with an intercept, as statsmodels
 * `variance_inflation_factor(add_constant(X), j)`. Rows with a missing value in any predictor are
 * dropped. A single predictor has VIF 1; a predictor the others explain exactly, or any predictor of a
 * design whose other drivers are collinear, has VIF Infinity; NaN when there are too few rows to
 * regress or the predictor is constant.
 * @throws RangeError when the columns differ in length.
 */
export function vif(columns: readonly (readonly number[])[]): number[] {
  const n = columns[0]?.length ?? 0;
  if (columns.some((column) => column.length !== n)) {
    throw new RangeError('VIF needs predictor columns of the same length');
  }
  const complete: number[] = [];
  for (let i = 0; i < n; i++) if (columns.every((column) => Number.isFinite(column[i]))) complete.push(i);
  return columns.map((column, j) => {
    if (columns.length === 1) return 1;
    const y = complete.map((i) => column[i] ?? Number.NaN);
    const rows = complete.map((i) =>
      columns.filter((_, m) => m !== j).map((other) => other[i] ?? Number.NaN),
    );
    const fit = ols(rows, y);
    // Too few rows to regress: undefined. Otherwise a rank-deficient fit means the other drivers are
    // collinear among themselves: the design is collinear and no variance is finite.
    if (fit.rankDeficient) return rows.length <= columns.length ? Number.NaN : Number.POSITIVE_INFINITY;
    if (Number.isNaN(fit.rSquared)) return Number.NaN;
    return fit.rSquared >= 1 ? Number.POSITIVE_INFINITY : 1 / (1 - fit.rSquared);
  });
}
