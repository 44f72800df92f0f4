import { Exception } from './Exception';

export default function Exception404Page() {
  return <Exception code={404} />;
}
