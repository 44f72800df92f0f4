import { Exception } from './Exception';

export default function Exception500Page() {
  return <Exception code={500} />;
}
