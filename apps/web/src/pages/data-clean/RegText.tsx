import { RuleEditor } from './RuleEditor';

/** 正则文本: write or change a regex rule with named groups and try it on a sentence. */
export default function RegText() {
  return <RuleEditor kind="regex" />;
}
