"""The torch a host imports: its version, or the import's traceback on stderr."""
import torch

if __name__ == "__main__":
    print(torch.__version__)
