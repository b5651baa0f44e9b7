/**
 * A stored value Parley cannot read (a hand-edited database, a damaged disk) is not a bug of the
 * request: it answers 500 `corrupt_record` naming the table, column and row to mend or remove,
 * instead of a bare `internal`. The cause (the parse error) stays in the log, never in the answer.
 */
import { ServiceError } from '../../../../shared/errors.js';
import { CorruptRecordError } from '../../../db/repositories/decode.js';

export function isCorruptRecord(error: unknown): error is CorruptRecordError {
  return error instanceof CorruptRecordError;
}

export function corruptRecordError(error: CorruptRecordError): ServiceError {
  return new ServiceError('corrupt_record', `${error.message} The database holds a value Parley did not write there (edited by hand, or a damaged disk): restore a backup, or remove that ${error.table} record.`);
}
