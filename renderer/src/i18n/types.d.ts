import type { Locale, MessageId } from './catalogues/index.js';

// react-intl checks every message id against the English catalogue at compile time.
declare global {
  namespace FormatjsIntl {
    interface Message {
      ids: MessageId;
    }
    interface IntlConfig {
      locale: Locale;
    }
  }
}
