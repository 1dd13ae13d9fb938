from citewise.cli import main

main()
