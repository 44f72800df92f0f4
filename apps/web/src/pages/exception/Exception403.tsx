import { Exception } from './Exception';

export default function Exception403Page() {
  return <Exception code={403} />;
}
