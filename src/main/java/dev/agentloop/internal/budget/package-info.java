/**
 * The budget of a run, in one place: what a run may spend ({@link dev.agentloop.internal.budget.Budget}), what it
 * and the runs it called have spent ({@link dev.agentloop.internal.budget.Spending}), and the one check that decides
 * whether the next model or tool call may go out ({@link dev.agentloop.internal.budget.BudgetCheck}). Plain values,
 * below every feature that keeps, checks or shows a budget.
 */
package dev.agentloop.internal.budget;
