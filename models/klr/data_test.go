package klr

import "ukm/internal/dataset"

func loadSet(name string) (*dataset.Set, error) { return dataset.Load(name) }
