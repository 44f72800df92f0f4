import { DictionaryScreen } from './Dictionaries';

/** 基础字典维护 (`/data-lake/basic-dictionary-maintenance`): the basic dictionaries every app has. */
export default function BasicDictionaries() {
  return <DictionaryScreen builtin />;
}
