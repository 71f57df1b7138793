import t from 'tap';
import { AppError, invalidStructure } from '../../shared/errors.ts';

t.test('AppError survives a JSON round trip with status and detail', async (t) => {
  const e = invalidStructure('C1CC');
  const back = AppError.from(JSON.parse(JSON.stringify(e)));
  t.ok(back instanceof AppError);
  t.equal(back?.status, 422);
  t.equal(back?.detail, 'Error reading smiles, check again: C1CC');
  t.equal(back?.isClientError, true);
  t.equal(AppError.from({ nope: 1 }), undefined);
});
