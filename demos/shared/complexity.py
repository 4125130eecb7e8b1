"""Table 1 of Vaswani et al. (2017): what one layer costs for n positions of width d. Facts
quoted from the paper, shown beside what the demos measure (the attention web, the speed race)."""
SOURCE = "Vaswani et al. (2017), Attention Is All You Need, Table 1"
TABLE_1 = [
    {"layer": "Self-attention", "per_layer": "O(n²·d)", "sequential": "O(1)", "path": "O(1)"},
    {"layer": "Recurrent", "per_layer": "O(n·d²)", "sequential": "O(n)", "path": "O(n)"},
]
