import type { Meta, StoryObj } from "@storybook/react-vite";
import { useState } from "react";
import { Pagination } from "@atelier/ui";

const meta = {
  title: "Components/Pagination",
  component: Pagination,
  args: { currentPage: 6, pageCount: 12, onPageChange: () => {} },
} satisfies Meta<typeof Pagination>;

export default meta;
type Story = StoryObj<typeof meta>;

export const MiddlePage: Story = {};

export const FirstPage: Story = { args: { currentPage: 1 } };

export const FewPages: Story = { args: { currentPage: 2, pageCount: 3 } };

function InteractivePagination() {
  const [currentPage, setCurrentPage] = useState(1);
  return <Pagination currentPage={currentPage} pageCount={12} onPageChange={setCurrentPage} />;
}

export const Interactive: Story = { render: () => <InteractivePagination /> };
