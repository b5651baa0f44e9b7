/** What to show for a rejected call: a `ServiceError`'s message, or whatever was thrown. */
export { errorText } from '../../../shared/errors.js';
