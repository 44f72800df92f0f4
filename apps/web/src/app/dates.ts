import dayjs from 'dayjs';
import 'dayjs/locale/zh-cn';
import 'dayjs/locale/en';
import updateLocale from 'dayjs/plugin/updateLocale';
import { i18next } from './i18n';

// Dates in the reader's language. Loaded with the signed-in shell (Guard imports this module
// before any page), not at start-up: the login page shows no date and does not download dayjs.
dayjs.extend(updateLocale);
// Weeks start on Sunday in both languages (spec 000 section 9); dayjs' zh-cn starts on Monday.
dayjs.updateLocale('zh-cn', { weekStart: 0 });
dayjs.updateLocale('en', { weekStart: 0 });

const follow = (lng: string | undefined) => {
  dayjs.locale(lng === 'en-US' ? 'en' : 'zh-cn');
};
follow(i18next.language);
// Fires before React draws in the new language (react-i18next re-renders after the event).
i18next.on('languageChanged', follow);
