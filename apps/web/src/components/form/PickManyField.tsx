import { ProFormSelect, type ProFormSelectProps } from '@ant-design/pro-components';
import { Alert } from 'antd';

/**
 * A form field that picks several of a list the page reads (variables, groups, indicators):
 * it shows loading while the list does, the reason above it when the list could not be read
 * (`error`, the read's error; a page that shows one reason for several reads passes none), and
 * finds an option by typing part of its label.
 */
export function PickManyField({
  loading,
  error,
  ...props
}: ProFormSelectProps & { loading: boolean; error?: Error | null }) {
  return (
    <>
      {error && <Alert type="error" showIcon message={error.message} />}
      <ProFormSelect
        mode="multiple"
        showSearch
        {...props}
        fieldProps={{ loading, optionFilterProp: 'label', ...props.fieldProps }}
      />
    </>
  );
}
