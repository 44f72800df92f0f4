import { OwnModels } from './OwnModels';

/** 专病模型模板 (`/data-model/specialModelManagementTep`): disease model templates. */
export default function Templates() {
  return <OwnModels kind="template" />;
}
