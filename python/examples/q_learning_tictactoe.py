"""Tabular Q-learning on tic-tac-toe against a random opponent, then a
tournament through boardlab's runner: the learned greedy policy against the
built-in random agent, both seats. Runs in well under a minute.

    python python/examples/q_learning_tictactoe.py [episodes]
"""

import random
import sys
from collections import defaultdict

import boardlab

GAME = boardlab.load_game("tictactoe")


def train(episodes, seed=0, alpha=0.3, epsilon=0.2):
    """Q[(info string, action)] for the seat to move, learned from the final
    return (discount 1); the opponent plays uniformly at random."""
    rng = random.Random(seed)
    q = defaultdict(float)
    for episode in range(episodes):
        me = episode % 2
        state = GAME.new_initial_state()
        trail = []
        while not state.is_terminal():
            legal = state.legal_actions()
            if state.current_player() == me:
                key = state.information_state_string(me)
                if rng.random() < epsilon:
                    action = rng.choice(legal)
                else:
                    action = max(legal, key=lambda a: q[(key, a)])
                trail.append((key, action))
            else:
                action = rng.choice(legal)
            state.apply_action(action)
        ret = state.returns()[me]
        # Monte Carlo backup of the final return along the learner's moves.
        for key, action in trail:
            q[(key, action)] += alpha * (ret - q[(key, action)])
    return q


def main():
    episodes = int(sys.argv[1]) if len(sys.argv) > 1 else 30000
    q = train(episodes)

    def learned(view, legal):
        key = view.information_state_string(view.current_player())
        return max(legal, key=lambda a: q[(key, a)])

    rows = boardlab.run("tictactoe", agents=[learned, "random"], games=400, seed=1)
    mine = [r for r in rows if r["agent"] == "python:learned"]
    wins = sum(r["outcome"] == "win" for r in mine)
    losses = sum(r["outcome"] == "loss" for r in mine)
    print(f"{episodes} episodes, {len(q)} Q-values")
    print(f"learned vs random over {len(mine)} games: {wins} wins, {losses} losses")
    if wins <= 2 * losses or wins < len(mine) // 2:
        print("the learned policy did not beat random clearly")
        sys.exit(1)


if __name__ == "__main__":
    main()
