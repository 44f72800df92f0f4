import { SentenceTestScreen } from './SentenceTest';

/** Batch sentence test (批量句子测试): one sentence a line. */
export default function ManySentenceTest() {
  return <SentenceTestScreen many />;
}
