import { RuleEditor } from './RuleEditor';

/** 句法规则: write or change a syntactic rule and try it on a sentence. */
export default function SyntacticRules() {
  return <RuleEditor kind="syntactic" />;
}
