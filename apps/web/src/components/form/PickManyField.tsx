import { ProFormSelect, type ProFormSelectProps } from '@ant-design/pro-components';

/**
 * A form field that picks several of a list the page reads (variables, groups, indicators):
 * it shows loading while the list does, and finds an option by typing part of its label.
 */
export function PickManyField({ loading, ...props }: ProFormSelectProps & { loading: boolean }) {
  return (
    <ProFormSelect
      mode="multiple"
      showSearch
      {...props}
      fieldProps={{ loading, optionFilterProp: 'label', ...props.fieldProps }}
    />
  );
}
